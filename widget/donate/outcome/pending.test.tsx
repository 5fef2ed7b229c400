// The Pending screen follows the donation up: it asks GET /v1/donations/{reference} again,
// backing off, and turns into the thanks or into the form ("nothing was charged") without a
// reload. Fake timers stand in for the minutes a donor would wait.
import { cleanup, fireEvent, waitFor, within } from "@testing-library/preact";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FOLLOW_FOR_MS, FOLLOW_MAX_MS } from "./attempt";
import { defineDonateElement } from "../element";
import {
  donationStatus,
  giveAgainWithNewCard,
  installFakeCardFrame,
  problem,
  reach,
  renderDonate,
  stubProxy,
  success,
  HOPE_CONTEXT,
} from "../../../test/helpers/donate-harness";

const REFERENCE = "gk_0123456789abcdef0123";
const PENDING = { status: 202, body: { donation: { status: "Pending", reference: REFERENCE } } };
const CHECKING = "We are checking with the payment service; this page will update by itself.";

let frame: ReturnType<typeof installFakeCardFrame>;

beforeEach(() => {
  // The clock also runs on its own, so the library's waits work; tests jump it ahead.
  vi.useFakeTimers({ shouldAdvanceTime: true });
  frame = installFakeCardFrame();
});
afterEach(() => {
  cleanup();
  frame.restore();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  document.body.innerHTML = "";
});

type Widget = ReturnType<typeof within>;

async function give(widget: Widget, donate = "Donate $25.00") {
  fireEvent.input(widget.getByLabelText("First name"), { target: { value: "Grace" } });
  fireEvent.input(widget.getByLabelText("Last name"), { target: { value: "Hopper" } });
  fireEvent.input(widget.getByLabelText("E-mail"), { target: { value: "grace@example.org" } });
  frame.cardComplete();
  fireEvent.click(await reach(widget, donate));
}

const donationEvents = (events: { type: string; detail: unknown }[]) =>
  events.filter((event) => event.type === "givekit:donation").map((event) => event.detail);

describe("a Pending donation, followed up", () => {
  it("asks again, backing off through 503, no answer and 429, then thanks the donor with the transaction id", async () => {
    const proxy = stubProxy({
      donations: [PENDING],
      statuses: [
        donationStatus("Pending", REFERENCE),
        problem(503, "store_unavailable"),
        "network-error",
        problem(429, "rate_limited"),
        donationStatus("Success", REFERENCE, "T-777"),
      ],
    });
    const { widget, events } = await renderDonate();
    await give(widget);
    await widget.findByRole("heading", { name: "We could not confirm your donation" });
    expect(widget.getByText(CHECKING)).toBeTruthy();
    expect(widget.getByText(REFERENCE)).toBeTruthy();
    const sent = proxy.donationCalls()[0]!.at;

    await vi.advanceTimersByTimeAsync(1000);
    expect(proxy.statusCalls()).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(60_000);
    const thanks = await widget.findByRole("heading", { name: "Thank you!" });
    await waitFor(() => expect(document.activeElement).toBe(thanks));
    expect(widget.getByText("Your donation of $25.00 went through.")).toBeTruthy();
    expect(widget.getByText("T-777")).toBeTruthy();

    const calls = proxy.statusCalls();
    expect(calls.map((call) => `${call.method} ${new URL(call.url).pathname}`)).toEqual(
      Array(5).fill(`GET /v1/donations/${REFERENCE}`),
    );
    // 2 s, then twice as long each time: asked at about 2, 6, 14, 30 and 60 s.
    const gaps = calls.map((call, i) => call.at - (i === 0 ? sent : calls[i - 1]!.at));
    for (const [i, gap] of gaps.entries()) {
      const expected = Math.min(2000 * 2 ** i, FOLLOW_MAX_MS);
      expect(gap).toBeGreaterThanOrEqual(expected);
      expect(gap).toBeLessThan(expected + 500);
    }
    expect(donationEvents(events)).toEqual([
      { ...HOPE_CONTEXT, status: "Pending", amount: "25.00", frequency: "once", transaction_id: null },
      { ...HOPE_CONTEXT, status: "Success", amount: "25.00", frequency: "once", transaction_id: "T-777" },
    ]);

    // Known: no more questions.
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(proxy.statusCalls()).toHaveLength(5);
  });

  it("NotCharged brings the form back as the donor left it; the next try is new (key and card token)", async () => {
    const proxy = stubProxy({
      donations: [PENDING, success("50.00", "0.00", "T-2")],
      statuses: [donationStatus("NotCharged", REFERENCE)],
    });
    const { widget, events } = await renderDonate();
    fireEvent.click(widget.getByRole("radio", { name: "$50" }));
    await give(widget, "Donate $50.00");
    await widget.findByRole("heading", { name: "We could not confirm your donation" });
    await vi.advanceTimersByTimeAsync(2000);

    const alert = await widget.findByRole("alert");
    expect(alert.textContent).toBe(
      "Your donation did not go through, so nothing was charged. You can try again.",
    );
    await waitFor(() => expect(document.activeElement).toBe(alert));
    expect(widget.getByLabelText("First name")).toHaveProperty("value", "Grace");
    expect(widget.getByLabelText("E-mail")).toHaveProperty("value", "grace@example.org");
    // Back to the amount: as it was.
    fireEvent.click(widget.getByRole("button", { name: "Back" }));
    fireEvent.click(widget.getByRole("button", { name: "Back" }));
    expect(await widget.findByRole("radio", { name: "$50" })).toHaveProperty("checked", true);
    expect(donationEvents(events)).toEqual([
      { ...HOPE_CONTEXT, status: "Pending", amount: "50.00", frequency: "once", transaction_id: null },
      { ...HOPE_CONTEXT, status: "NotCharged", amount: "50.00", frequency: "once", transaction_id: null },
    ]);

    await giveAgainWithNewCard(widget, frame, proxy, "Donate $50.00");
    expect(proxy.statusCalls()).toHaveLength(1);
  });

  it("a 404 stops the questions with a clear word; the reference stays on screen", async () => {
    const proxy = stubProxy({ donations: [PENDING], statuses: [problem(404, "not_found")] });
    const { widget, events } = await renderDonate();
    await give(widget);
    await widget.findByRole("heading", { name: "We could not confirm your donation" });
    await vi.advanceTimersByTimeAsync(2000);
    expect(
      await widget.findByText(
        "We can no longer look this donation up. Please give the organization this reference.",
      ),
    ).toBeTruthy();
    expect(widget.queryByText(CHECKING)).toBeNull();
    expect(widget.getByText(REFERENCE)).toBeTruthy();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(proxy.statusCalls()).toHaveLength(1);
    expect(donationEvents(events).map((detail) => (detail as { status: string }).status)).toEqual([
      "Pending",
    ]);
  });

  it("gives up after FOLLOW_FOR_MS, having asked a bounded number of times", async () => {
    const proxy = stubProxy({ donations: [PENDING], statuses: [donationStatus("Pending", REFERENCE)] });
    const { widget } = await renderDonate();
    await give(widget);
    await widget.findByRole("heading", { name: "We could not confirm your donation" });
    await vi.advanceTimersByTimeAsync(FOLLOW_FOR_MS - 60_000);
    expect(widget.getByText(CHECKING)).toBeTruthy();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(
      await widget.findByText(
        "We still cannot confirm it. Please give the organization this reference before you donate again.",
      ),
    ).toBeTruthy();
    const asked = proxy.statusCalls().length;
    // 2 + 4 + 8 + 16 s, then every 30 s: about 43 questions in 20 minutes.
    expect(asked).toBeGreaterThan(35);
    expect(asked).toBeLessThanOrEqual(4 + FOLLOW_FOR_MS / FOLLOW_MAX_MS);
    await vi.advanceTimersByTimeAsync(30 * 60_000);
    expect(proxy.statusCalls()).toHaveLength(asked);
  });

  it("speaks Spanish while it checks and when nothing was charged", async () => {
    stubProxy({
      donations: [PENDING],
      statuses: [donationStatus("Pending", REFERENCE), donationStatus("NotCharged", REFERENCE)],
    });
    const { widget } = await renderDonate({ locale: "es" });
    fireEvent.input(widget.getByLabelText("Nombre"), { target: { value: "Ana" } });
    fireEvent.input(widget.getByLabelText("Apellido"), { target: { value: "Ruiz" } });
    fireEvent.input(widget.getByLabelText("Correo electrónico"), { target: { value: "ana@example.org" } });
    frame.cardComplete();
    fireEvent.click(await reach(widget, /^Donar/));
    await widget.findByRole("heading", { name: "No pudimos confirmar su donación" });
    expect(
      widget.getByText("Estamos consultando con el servicio de pagos; esta página se actualizará sola."),
    ).toBeTruthy();
    await vi.advanceTimersByTimeAsync(6000);
    expect((await widget.findByRole("alert")).textContent).toBe(
      "Su donación no se realizó, así que no se hizo ningún cargo. Puede intentarlo de nuevo.",
    );
  });
});

describe("<givekit-donate> removed while Pending", () => {
  it("asks nothing more once the element is gone", async () => {
    defineDonateElement();
    const proxy = stubProxy({ donations: [PENDING], statuses: [donationStatus("Pending", REFERENCE)] });
    document.body.innerHTML =
      '<givekit-donate proxy="https://give.example.org" shortcode="71777" keyword="HOPE"></givekit-donate>';
    const element = document.body.firstElementChild as HTMLElement;
    const shadow = within(element.shadowRoot as unknown as HTMLElement);
    await shadow.findByRole("button", { name: "Next" });
    await give(shadow);
    await shadow.findByRole("heading", { name: "We could not confirm your donation" });
    await vi.advanceTimersByTimeAsync(6000);
    expect(proxy.statusCalls()).toHaveLength(2);

    element.remove();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(proxy.statusCalls()).toHaveLength(2);
  });
});
