import { describe, expect, it } from "vitest";
import { createFormSessions } from "./form-session";

const fixedNow = () => 1_800_000_000_000;
const CONFIG = {
  minFormMs: 1500,
  formSessionTtlS: 3600,
  formSessionTokenizations: 5,
  formSessionCards: 3,
  formSessionBulk: 20,
};

describe("form sessions", () => {
  it("time the form from the session's start, and hold until it expires", async () => {
    let now = 1_800_000_000_000;
    const sessions = createFormSessions(CONFIG, { secret: "k".repeat(32), counters: null, now: () => now });
    const { form_session, expires_in_s } = await sessions.issue();
    expect(expires_in_s).toBe(3600);
    expect(await sessions.check(form_session, "card-a")).toBe("too_fast");
    now += 1500;
    expect(await sessions.check(form_session, "card-a")).toBeNull();
    now += 3600_000;
    expect(await sessions.check(form_session, "card-a")).toBe("form_session_expired");
  });

  it("a renewal keeps the start and the count, and moves the end; an expired one starts anew", async () => {
    let now = 1_800_000_000_000;
    const sessions = createFormSessions(CONFIG, { secret: "k".repeat(32), counters: null, now: () => now });
    const first = (await sessions.issue()).form_session;
    now += 3000_000;
    const renewed = (await sessions.issue(first)).form_session;
    now += 3000_000;
    expect(await sessions.check(first, "card-a")).toBe("form_session_expired");
    expect(await sessions.check(renewed, "card-a")).toBeNull();
    for (let i = 0; i < 4; i++) expect(await sessions.check(renewed, "card-a")).toBeNull();
    // The same session under its new end is the same session: its sixth tokenization is one too many.
    expect(await sessions.check((await sessions.issue(renewed)).form_session, "card-a")).toBe(
      "form_session_spent",
    );
    now += 3600_000;
    const fresh = (await sessions.issue(renewed)).form_session;
    expect(await sessions.check(fresh, "card-a")).toBe("too_fast");
  });

  it("a session made with another key, or changed by one character, is forged", async () => {
    const ours = createFormSessions(CONFIG, { secret: "k".repeat(32), counters: null, now: fixedNow });
    const theirs = createFormSessions(CONFIG, { secret: "t".repeat(32), counters: null, now: fixedNow });
    const session = (await theirs.issue()).form_session;
    expect(await ours.check(session, "card-a")).toBe("form_session_forged");
    const own = (await ours.issue()).form_session;
    // A later start claimed by the page: the signature no longer matches.
    const [started, ...rest] = own.split(".");
    const earlier = [(parseInt(started!, 36) - 600_000).toString(36), ...rest].join(".");
    expect(await ours.check(earlier, "card-a")).toBe("form_session_forged");
    for (const text of [undefined, "", "x", `${own}x`])
      expect(await ours.check(text, "card-a")).not.toBeNull();
  });

  it("bound to the client and campaign it was minted for; a client minting many gets bulk sessions", async () => {
    const sessions = createFormSessions(
      { ...CONFIG, formSessionBulk: 2 },
      { secret: "k".repeat(32), counters: null, now: fixedNow },
    );
    const mine = (await sessions.issue(undefined, { ip: "198.51.100.7", campaign: "71777/HOPE" }))
      .form_session;
    expect(sessions.facts(mine, "198.51.100.7")).toMatchObject({
      campaign: "71777/HOPE",
      bulk: false,
      foreign: false,
    });
    // Handed to another client: known as foreign (its cards are challenged).
    expect(sessions.facts(mine, "203.0.113.9")).toMatchObject({ foreign: true });
    // A renewal keeps the binding, whoever asks for it.
    const renewed = (await sessions.issue(mine, { ip: "203.0.113.9" })).form_session;
    expect(sessions.facts(renewed, "198.51.100.7")).toMatchObject({ campaign: "71777/HOPE", foreign: false });
    await sessions.issue(undefined, { ip: "198.51.100.7" });
    const third = (await sessions.issue(undefined, { ip: "198.51.100.7" })).form_session;
    expect(sessions.facts(third, "198.51.100.7")).toMatchObject({ bulk: true });
    expect(sessions.facts("forged", "198.51.100.7")).toBeNull();
  });

  it("keeps its counts past its first end when renewed, and declines of its cards block it", async () => {
    let now = 1_800_000_000_000;
    const sessions = createFormSessions(CONFIG, { secret: "k".repeat(32), counters: null, now: () => now });
    const first = (await sessions.issue()).form_session;
    now += 2000;
    for (let i = 0; i < 5; i++) expect(await sessions.check(first, "card-a")).toBeNull();
    // Renewed before its end, checked after the first end: the five are still counted.
    now += 3000_000;
    const renewed = (await sessions.issue(first)).form_session;
    now += 1000_000;
    expect(await sessions.check(renewed, "card-a")).toBe("form_session_spent");
    const other = (await sessions.issue()).form_session;
    now += 2000;
    const id = sessions.facts(other)!.id;
    for (let i = 0; i < CONFIG.formSessionCards; i++) await sessions.recordDecline(id);
    expect(await sessions.check(other, "card-b")).toBe("form_session_blocked");
  });
});
