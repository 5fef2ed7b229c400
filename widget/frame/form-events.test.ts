import { afterEach, describe, expect, it, vi } from "vitest";
import { FORM_EVENTS_MAX, formEventsProblems, type FormEventsBody } from "../../contract/form-steps";
import { createFormEvents, FORM_EVENTS_FLUSH_MS, FORM_EVENTS_URL } from "./form-events";

afterEach(() => {
  vi.useRealTimers();
  Reflect.deleteProperty(document, "visibilityState");
});

/** A beacon waits on the session's promise: this lets it settle. */
const settle = () => vi.advanceTimersByTimeAsync(0);

function setup(session: string | null = "fs-1") {
  vi.useFakeTimers();
  const beacons: { url: string; body: FormEventsBody }[] = [];
  const events = createFormEvents({
    formSession: { open: () => undefined, current: async () => session },
    send: (url, body) => {
      beacons.push({ url, body: JSON.parse(body) as FormEventsBody });
      return true;
    },
  });
  return { events, beacons, settle };
}

describe("the card frame's step beacons (widget/frame/form-events.ts)", () => {
  it("sends the steps reached as one beacon a short while after the form shows, nothing personal in it", async () => {
    const { events, beacons } = setup();
    events.about(390, "spring-gala");
    events.reach("shown");
    events.reach("details");
    await vi.advanceTimersByTimeAsync(FORM_EVENTS_FLUSH_MS - 1);
    expect(beacons).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await settle();
    expect(beacons).toEqual([
      {
        url: FORM_EVENTS_URL,
        body: {
          form_session: "fs-1",
          channel: "spring-gala",
          device: "phone",
          // A step implies those before it.
          events: [
            { step: "shown", reason: "reached" },
            { step: "amount", reason: "reached" },
            { step: "details", reason: "reached" },
          ],
        },
      },
    ]);
    // What the proxy reads it as: a beacon, and only the session, channel, device and steps.
    expect(formEventsProblems(beacons[0]!.body)).toEqual({});
    expect(Object.keys(beacons[0]!.body).toSorted()).toEqual(["channel", "device", "events", "form_session"]);
  });

  it("counts a reason at the furthest step reached, each step and reason once", async () => {
    const { events, beacons } = setup();
    events.about(1280, undefined);
    events.reach("card");
    events.reach("sent");
    events.stop("card_declined");
    events.stop("card_declined");
    events.reach("amount");
    events.flush();
    await settle();
    expect(beacons).toHaveLength(1);
    expect(beacons[0]!.body.device).toBe("larger");
    expect(beacons[0]!.body).not.toHaveProperty("channel");
    // The gift sent and its decline are the proxy's to count: never in a beacon.
    expect(beacons[0]!.body.events).toEqual([
      { step: "shown", reason: "reached" },
      { step: "amount", reason: "reached" },
      { step: "details", reason: "reached" },
      { step: "card", reason: "reached" },
    ]);
  });

  it("names a refused field's reason, and counts nothing for codes that say nothing of the donor or after the thanks", async () => {
    const { events, beacons } = setup();
    events.about(800, "x");
    events.reach("amount");
    events.stop("validation_failed", "email");
    events.stop("rate_limited");
    events.reach("thanks");
    events.stop("closed");
    events.flush();
    await settle();
    expect(beacons[0]!.body.events.filter((e) => e.reason !== "reached")).toEqual([
      { step: "amount", reason: "invalid_email" },
    ]);
  });

  it("sends at once when FORM_EVENTS_MAX wait, and when the page is hidden", async () => {
    const { events, beacons } = setup();
    events.about(800, undefined);
    events.reach("amount");
    for (const field of ["amount", "email", "phone", "fullName", "zip", "memo"])
      events.stop("validation_failed", field);
    events.reach("sent");
    events.stop("card_declined");
    events.stop("validation_failed", "amount");
    expect(beacons).toHaveLength(0);
    // The twelfth: four steps, six refused fields at one step and two at the furthest (the decline is the proxy's).
    events.stop("validation_failed", "email");
    await settle();
    expect(beacons.map((b) => b.body.events.length)).toEqual([FORM_EVENTS_MAX]);
    events.stop("closed");
    await settle();
    expect(beacons).toHaveLength(1);
    Object.defineProperty(document, "visibilityState", { value: "hidden", configurable: true });
    document.dispatchEvent(new Event("visibilitychange"));
    await settle();
    expect(beacons.map((b) => b.body.events)).toHaveLength(2);
    expect(beacons[1]!.body.events).toEqual([{ step: "sent", reason: "closed" }]);
  });

  it("waits for the form's look (its device and channel) before sending, and sends nothing without a session", async () => {
    const { events, beacons } = setup();
    events.reach("shown");
    await vi.advanceTimersByTimeAsync(FORM_EVENTS_FLUSH_MS * 3);
    expect(beacons).toEqual([]);
    events.about(390, undefined);
    window.dispatchEvent(new Event("pagehide"));
    await settle();
    expect(beacons.map((b) => b.body.events)).toEqual([[{ step: "shown", reason: "reached" }]]);

    const none = setup(null);
    none.events.about(390, undefined);
    none.events.reach("card");
    await vi.advanceTimersByTimeAsync(FORM_EVENTS_FLUSH_MS);
    expect(none.beacons).toEqual([]);
  });
});
