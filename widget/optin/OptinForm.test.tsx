import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/preact";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { OptinProps } from "./attributes";
import { OptinForm } from "./OptinForm";
import { problem, stubFetch, subscribed } from "./test-helpers";

const baseProps: OptinProps = {
  proxyUrl: "https://proxy.example.org",
  target: { keyword: "HOPE", shortcode: "71777" },
  programName: "Hope Shelter",
  termsUrl: "https://hope.example.org/sms-terms",
  privacyUrl: "https://hope.example.org/privacy",
  locale: "en",
};

function renderForm(overrides: Partial<OptinProps> = {}) {
  const host = document.createElement("div");
  document.body.append(host);
  const events: { type: string; detail: unknown }[] = [];
  for (const type of ["givekit:ready", "givekit:subscribe", "givekit:error"]) {
    host.addEventListener(type, (event) => events.push({ type, detail: (event as CustomEvent).detail }));
  }
  const view = render(<OptinForm {...baseProps} {...overrides} host={host} />);
  return { ...view, host, events };
}

function fillIn(mobile = "5550101234") {
  fireEvent.input(screen.getByLabelText("Mobile number"), { target: { value: mobile } });
  fireEvent.input(screen.getByLabelText("First name"), { target: { value: "Ada" } });
  fireEvent.input(screen.getByLabelText("Last name"), { target: { value: "Lovelace" } });
  fireEvent.click(
    screen.getByRole("checkbox", { name: "I agree to receive text messages from Hope Shelter." }),
  );
}

const subscribeButton = () => screen.getByRole("button", { name: "Subscribe" });
const liveRegion = () => screen.getByRole("status");
const describedText = (element: HTMLElement) =>
  (element.getAttribute("aria-describedby") ?? "")
    .split(" ")
    .map((id) => document.getElementById(id)?.textContent ?? "")
    .join(" ");

afterEach(() => {
  cleanup();
  document.body.replaceChildren();
  vi.unstubAllGlobals();
});

describe("<givekit-optin> form: empty", () => {
  it("shows the fields, an unticked consent box and fires givekit:ready", () => {
    const { events } = renderForm();
    expect(screen.getByRole("heading", { name: "Get text updates" })).toBeTruthy();
    expect(screen.getByRole("textbox", { name: "First name" })).toBeTruthy();
    expect(screen.getByRole("textbox", { name: "Last name" })).toBeTruthy();
    const mobile = screen.getByLabelText("Mobile number") as HTMLInputElement;
    expect(mobile.type).toBe("tel");
    expect(mobile.getAttribute("autocomplete")).toBe("tel");
    const consent = screen.getByRole("checkbox") as HTMLInputElement;
    expect(consent.checked).toBe(false);
    expect(events).toEqual([{ type: "givekit:ready", detail: { widget: "optin" } }]);
  });

  it("shows the complete disclosure above the button, tied to the consent box", () => {
    renderForm();
    const consent = screen.getByRole("checkbox");
    const disclosure = document.getElementById(consent.getAttribute("aria-describedby")!)!;
    const text = disclosure.textContent!;
    for (const phrase of [
      "Hope Shelter",
      "recurring automated text messages",
      "Msg frequency varies",
      "Msg & data rates may apply",
      "Reply HELP for help, STOP to cancel",
    ]) {
      expect(text).toContain(phrase);
    }
    expect(within(disclosure).getByRole("link", { name: "Terms" }).getAttribute("href")).toBe(
      baseProps.termsUrl,
    );
    expect(within(disclosure).getByRole("link", { name: "Privacy Policy" }).getAttribute("href")).toBe(
      baseProps.privacyUrl,
    );
    // DOCUMENT_POSITION_FOLLOWING: the button comes after the disclosure.
    expect(
      disclosure.compareDocumentPosition(subscribeButton()) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
  });

  it("offers texting the keyword instead, where keyword and shortcode are known", () => {
    renderForm();
    const link = screen.getByRole("link", { name: "or text HOPE to 71777" });
    expect(link.getAttribute("href")).toBe("sms:71777?&body=HOPE");
  });

  it("has no texting link for a list without a keyword", () => {
    renderForm({ target: { list: "Hope Alerts" } });
    expect(screen.queryByRole("link", { name: /or text/ })).toBeNull();
  });

  it("formats the mobile number as it is typed", () => {
    renderForm();
    const mobile = screen.getByLabelText("Mobile number") as HTMLInputElement;
    fireEvent.input(mobile, { target: { value: "5550101234" } });
    expect(mobile.value).toBe("(555) 010-1234");
  });
});

describe("<givekit-optin> form: errors before sending", () => {
  it("marks every missing field, focuses the first, announces the count and sends nothing", async () => {
    const { fetchStub } = stubFetch();
    const { events } = renderForm();
    fireEvent.click(subscribeButton());

    const mobile = screen.getByLabelText("Mobile number");
    await waitFor(() => expect(document.activeElement).toBe(mobile));
    expect(liveRegion().textContent).toBe("Please fix 4 fields.");
    const expectations: [HTMLElement, string][] = [
      [mobile, "Enter your mobile number."],
      [screen.getByLabelText("First name"), "Enter your first name."],
      [screen.getByLabelText("Last name"), "Enter your last name."],
      [screen.getByRole("checkbox"), "Tick the box to agree to receive text messages."],
    ];
    for (const [field, message] of expectations) {
      expect(field.getAttribute("aria-invalid")).toBe("true");
      expect(describedText(field)).toContain(message);
    }
    expect(fetchStub).not.toHaveBeenCalled();
    expect(events.map((event) => event.type)).toEqual(["givekit:ready"]);
  });

  it.each(["555010123", "555010123456"])("refuses the number %s on the mobile field", async (number) => {
    const { fetchStub } = stubFetch();
    renderForm();
    fillIn(number);
    fireEvent.click(subscribeButton());
    const mobile = screen.getByLabelText("Mobile number");
    await waitFor(() => expect(document.activeElement).toBe(mobile));
    expect(
      screen.getByText("Enter a 10-digit US or Canadian mobile number, such as (555) 010-1234."),
    ).toBeTruthy();
    expect(liveRegion().textContent).toBe("Please fix 1 field.");
    expect(fetchStub).not.toHaveBeenCalled();
  });

  it("will not subscribe without the consent box ticked", async () => {
    const { fetchStub } = stubFetch();
    renderForm();
    fillIn();
    fireEvent.click(screen.getByRole("checkbox"));
    fireEvent.click(subscribeButton());
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole("checkbox")));
    expect(screen.getByText("Tick the box to agree to receive text messages.")).toBeTruthy();
    expect(fetchStub).not.toHaveBeenCalled();
  });
});

describe("<givekit-optin> form: success", () => {
  it.each(["+1 (555) 010-1234", "15550101234"])(
    "subscribes the pasted number %s with the disclosure shown as consent_text",
    async (pasted) => {
      const { calls } = stubFetch(subscribed());
      const { events } = renderForm({ target: { list: "Hope Alerts", keyword: "HOPE", shortcode: "71777" } });
      const consent = screen.getByRole("checkbox");
      const shownDisclosure = document.getElementById(consent.getAttribute("aria-describedby")!)!.textContent;
      fillIn(pasted);
      fireEvent.click(subscribeButton());

      const heading = await screen.findByRole("heading", { name: "You're subscribed" });
      await waitFor(() => expect(document.activeElement).toBe(heading));
      expect(screen.getByText(/Hope Shelter will text \(555\) 010-1234\./)).toBeTruthy();
      expect(liveRegion().textContent).toBe("You're subscribed");

      expect(calls).toHaveLength(1);
      expect(calls[0]!.url).toBe("https://proxy.example.org/v1/subscriptions");
      expect(calls[0]!.init.method).toBe("POST");
      expect(calls[0]!.body).toEqual({
        mobilenumber: "5550101234",
        list: "Hope Alerts",
        keyword: "HOPE",
        shortcode: "71777",
        firstname: "Ada",
        lastname: "Lovelace",
        consent: true,
        consent_text: shownDisclosure,
        consent_locale: "en",
      });
      expect(events.slice(1)).toEqual([{ type: "givekit:subscribe", detail: { status: "subscribed" } }]);
      expect(JSON.stringify(events)).not.toContain("010");
    },
  );

  it("sends once when Subscribe is pressed twice while the first is in flight", async () => {
    let answer!: (response: Response) => void;
    const fetchStub = vi.fn<() => Promise<Response>>(
      () => new Promise<Response>((resolve) => (answer = resolve)),
    );
    vi.stubGlobal("fetch", fetchStub);
    renderForm();
    fillIn();
    fireEvent.click(subscribeButton());
    const busyButton = await screen.findByRole("button", { name: "Subscribing…" });
    expect(busyButton.getAttribute("aria-disabled")).toBe("true");
    fireEvent.click(busyButton);
    answer(subscribed());
    await screen.findByRole("heading", { name: "You're subscribed" });
    expect(fetchStub).toHaveBeenCalledTimes(1);
  });
});

describe("<givekit-optin> form: refused by the proxy", () => {
  it.each([
    [
      "already subscribed or rejected",
      problem(422, "subscription_rejected"),
      "subscription_rejected",
      "We could not sign up this number. It may already be subscribed, or it cannot receive these messages.",
    ],
    [
      "rate limited",
      problem(429, "rate_limited"),
      "rate_limited",
      "Too many attempts from this connection. Please wait a few minutes and try again.",
    ],
    [
      "upstream down",
      problem(503, "upstream_unavailable"),
      "upstream_unavailable",
      "The sign-up service is not answering right now. You have not been subscribed; please try again in a few minutes.",
    ],
    [
      "upstream error",
      problem(502, "upstream_error"),
      "upstream_error",
      "The sign-up service is not answering right now. You have not been subscribed; please try again in a few minutes.",
    ],
    [
      "network error",
      new TypeError("Failed to fetch"),
      "network_error",
      "We could not reach the server. Check your connection and try again.",
    ],
  ])("%s: says so, keeps the form, and fires givekit:error", async (_state, answer, code, message) => {
    stubFetch(answer);
    const { events } = renderForm();
    fillIn();
    fireEvent.click(subscribeButton());
    await waitFor(() => expect(liveRegion().textContent).toBe(message));
    // Shown beside the button, and read out as the button's description.
    expect(describedText(subscribeButton())).toContain(message);
    expect((screen.getByLabelText("Mobile number") as HTMLInputElement).value).toBe("(555) 010-1234");
    expect(events.slice(1)).toEqual([{ type: "givekit:error", detail: { code } }]);
  });

  it("suggests texting the keyword again after a rejection, for people who once replied STOP", async () => {
    stubFetch(problem(422, "subscription_rejected"));
    renderForm();
    fillIn();
    fireEvent.click(subscribeButton());
    await waitFor(() =>
      expect(describedText(subscribeButton())).toContain(
        "If you once replied STOP, text HOPE to 71777 to join again.",
      ),
    );
  });

  it("lets the person try again after a failure", async () => {
    const { calls } = stubFetch(problem(503, "upstream_unavailable"), subscribed());
    renderForm();
    fillIn();
    fireEvent.click(subscribeButton());
    await waitFor(() => expect(liveRegion().textContent).toMatch(/The sign-up service is not answering/));
    fireEvent.click(subscribeButton());
    expect(await screen.findByRole("heading", { name: "You're subscribed" })).toBeTruthy();
    expect(calls).toHaveLength(2);
  });

  it("shows the proxy's per-field errors on the right fields and focuses the first", async () => {
    stubFetch(
      problem(400, "validation_failed", {
        mobilenumber: ["Enter a 10-digit US or Canadian mobile number."],
        lastname: ["Too long."],
      }),
    );
    const { events } = renderForm();
    fillIn();
    fireEvent.click(subscribeButton());
    const mobile = screen.getByLabelText("Mobile number");
    await waitFor(() => expect(document.activeElement).toBe(mobile));
    expect(mobile.getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByLabelText("Last name").getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByLabelText("First name").getAttribute("aria-invalid")).toBeNull();
    expect(liveRegion().textContent).toBe("Please fix 2 fields.");
    expect(events.slice(1)).toEqual([{ type: "givekit:error", detail: { code: "validation_failed" } }]);
  });

  it("puts a consent_required refusal on the consent box", async () => {
    stubFetch(problem(400, "consent_required"));
    renderForm();
    fillIn();
    fireEvent.click(subscribeButton());
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole("checkbox")));
    expect(screen.getByText("Tick the box to agree to receive text messages.")).toBeTruthy();
  });
});

describe("<givekit-optin> form: Spanish", () => {
  it("speaks Spanish and sends the Spanish disclosure it showed", async () => {
    const { calls } = stubFetch(subscribed());
    renderForm({ locale: "es" });
    expect(screen.getByRole("heading", { name: "Reciba mensajes de texto" })).toBeTruthy();
    const consent = screen.getByRole("checkbox", {
      name: "Acepto recibir mensajes de texto de Hope Shelter.",
    });
    const shown = document.getElementById(consent.getAttribute("aria-describedby")!)!.textContent!;
    expect(shown).toContain("Responda HELP para obtener ayuda o STOP para cancelar");
    expect(screen.getByRole("link", { name: "o envíe HOPE al 71777" })).toBeTruthy();

    fireEvent.click(screen.getByRole("button", { name: "Suscribirme" }));
    await waitFor(() => expect(screen.getByRole("status").textContent).toBe("Corrija 4 campos."));
    expect(screen.getByText("Ingrese su número de celular.")).toBeTruthy();

    fireEvent.input(screen.getByLabelText("Número de celular"), { target: { value: "5550101234" } });
    fireEvent.input(screen.getByLabelText("Nombre"), { target: { value: "Ana" } });
    fireEvent.input(screen.getByLabelText("Apellido"), { target: { value: "García" } });
    fireEvent.click(consent);
    fireEvent.click(screen.getByRole("button", { name: "Suscribirme" }));
    expect(await screen.findByRole("heading", { name: "Ya está suscrito" })).toBeTruthy();
    expect(calls[0]!.body.consent_text).toBe(shown);
  });
});
