import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import pino from "pino";
import type { BreakerConfig } from "../config";
import { ProblemError } from "../problem";
import { memoryCounters } from "../store/counters";
import { COME_BACK_AFTER_MS, breakerScopes, createBreaker, heldNow } from "./breaker";

const CONFIG: BreakerConfig = {
  windowS: 600,
  clientDeclines: 3,
  clientTokens: 8,
  campaignDeclines: 10,
  campaignTokens: 15,
  binDeclines: 3,
  successShare: 0.1,
  openS: 30,
};

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function breakerWith(config: Partial<BreakerConfig> = {}) {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: "info" }, { write: (line: string) => lines.push(JSON.parse(line)) });
  const opened: string[] = [];
  const counters = memoryCounters();
  const breaker = createBreaker(
    { ...CONFIG, ...config },
    { counters, logger, onOpen: (kind) => opened.push(kind) },
  );
  return { breaker, lines, opened, counters };
}

/** What admitting a card came to: through (and as whose probe), or held with when to come back. */
async function admit(
  breaker: ReturnType<typeof createBreaker>,
  scopes = breakerScopes("198.51.100.7"),
  human = false,
  card?: string,
) {
  try {
    return { through: true as const, probe: (await breaker.admitCard(scopes, { human, card })).probe };
  } catch (error) {
    if (!(error instanceof ProblemError)) throw error;
    return { through: false as const, code: error.code, retryAfter: error.headers["Retry-After"] };
  }
}

describe("a circuit breaker", () => {
  it("a dead card refused before the network counts as a decline in its client, campaign and BIN: their breakers open as the network's declines would open them", async () => {
    const { breaker, opened } = breakerWith();
    const scopes = breakerScopes("198.51.100.9", "71777/HOPE", "400000");
    for (let i = 0; i < 3; i++) await breaker.refusedDead(scopes);
    // The client's and the BIN's budgets (3) are spent; the campaign's (10) not yet.
    expect(opened.toSorted()).toEqual(["bin", "client"]);
    expect(await admit(breaker, scopes)).toMatchObject({ through: false, code: "rate_limited" });
    for (let i = 0; i < 7; i++)
      await breaker.refusedDead(breakerScopes(`198.51.100.${20 + i}`, "71777/HOPE"));
    expect(opened).toContain("campaign");
  });

  it("holds a client past its decline budget, logs and counts the opening once, then lets one probe through", async () => {
    const { breaker, lines, opened } = breakerWith();
    const scopes = breakerScopes("198.51.100.7");
    for (let i = 0; i < 3; i++) {
      expect(await admit(breaker, scopes)).toMatchObject({ through: true, probe: [] });
      await breaker.recordOutcome(scopes, "declined", []);
    }
    expect(await admit(breaker, scopes)).toEqual({ through: false, code: "rate_limited", retryAfter: "30" });
    expect(await admit(breaker, scopes)).toMatchObject({ through: false });
    expect(opened).toEqual(["client"]);
    expect(lines.filter((line) => line.event === "breaker_open")).toEqual([
      expect.objectContaining({
        level: 40,
        scope: "client:198.51.100.7",
        why: "declines",
        count: 3,
        openS: 30,
      }),
    ]);
    // Another client is not held by this one's breaker.
    expect(await admit(breaker, breakerScopes("198.51.100.8"))).toMatchObject({ through: true });

    await expect(breaker.peek(scopes)).rejects.toMatchObject({ code: "rate_limited" });
    vi.advanceTimersByTime(30_000);
    // The probe's turn is free: peeking takes nothing, the card it lets on is the probe.
    await breaker.peek(scopes);
    expect(await admit(breaker, scopes)).toEqual({ through: true, probe: ["client:198.51.100.7"] });
    // One probe at a time: the next card waits for its outcome, and is held before anything counts
    // it, told in seconds when the next probe's turn comes (the widget waits that long).
    await expect(breaker.peek(scopes)).rejects.toMatchObject({ code: "rate_limited" });
    expect(await admit(breaker, scopes)).toEqual({ through: false, code: "rate_limited", retryAfter: "30" });
    vi.advanceTimersByTime(12_000);
    expect(await admit(breaker, scopes)).toMatchObject({ through: false, retryAfter: "18" });
  });

  it("cards in flight that spend a venue's budget of tokenizations hold each newcomer once; come back, it passes while they are still in flight", async () => {
    const { breaker } = breakerWith({ clientTokens: 2 });
    const venue = breakerScopes("198.51.100.31", "71777/HOPE");
    // Two guests' tokens made, their gifts not yet charged (a slow night: still in flight).
    for (const card of ["guest-1", "guest-2"]) {
      expect(await admit(breaker, venue, false, card)).toMatchObject({ through: true });
      await breaker.countToken(venue);
    }
    const held = await admit(breaker, venue, false, "guest-3");
    expect(held).toMatchObject({ through: false, code: "rate_limited" });
    vi.advanceTimersByTime(COME_BACK_AFTER_MS);
    // Nothing answered meanwhile: the guest who came back passes all the same, a card that did not is held.
    expect(await admit(breaker, venue, false, "guest-3")).toMatchObject({ through: true });
    expect(await admit(breaker, venue, false, "guest-4")).toMatchObject({ through: false });
  });

  it("the card that opens a client's breaker is held a moment, as every card there is, and passes when it comes back", async () => {
    const { breaker, opened } = breakerWith({ clientTokens: 2 });
    const venue = breakerScopes("198.51.100.30", "71777/HOPE");
    // Two tokenizations not yet answered by a charge or a decline: the budget is spent.
    for (const card of ["guest-1", "guest-2"]) {
      expect(await admit(breaker, venue, false, card)).toMatchObject({ through: true });
      await breaker.countToken(venue);
    }
    const comeBack = String(Math.ceil(COME_BACK_AFTER_MS / 1000));
    expect(await admit(breaker, venue, false, "guest-3")).toEqual({
      through: false,
      code: "rate_limited",
      retryAfter: comeBack,
    });
    expect(opened).toEqual(["client"]);
    // Meanwhile a guest's gift is charged: the venue's budget has room again.
    await breaker.recordOutcome(venue, "charged", []);
    vi.advanceTimersByTime(COME_BACK_AFTER_MS);
    expect(await admit(breaker, venue, false, "guest-3")).toMatchObject({ through: true });
  });

  it("a charged probe closes it; a declined one opens it for twice as long", async () => {
    const { breaker, lines } = breakerWith();
    const scopes = breakerScopes("198.51.100.9");
    for (let i = 0; i < 3; i++) {
      await admit(breaker, scopes);
      await breaker.recordOutcome(scopes, "declined", []);
    }
    vi.advanceTimersByTime(30_000);
    const probe = await admit(breaker, scopes);
    await breaker.recordOutcome(scopes, "declined", probe.through ? probe.probe : []);
    expect(await admit(breaker, scopes)).toMatchObject({ through: false, retryAfter: "60" });
    vi.advanceTimersByTime(60_000);
    const second = await admit(breaker, scopes);
    expect(second).toMatchObject({ through: true, probe: ["client:198.51.100.9"] });
    await breaker.recordOutcome(scopes, "charged", second.through ? second.probe : []);
    expect(lines.some((line) => line.event === "breaker_closed")).toBe(true);
    expect(await admit(breaker, scopes)).toMatchObject({ through: true, probe: [] });
    // Closed with one decline of its budget left: the next decline opens it again.
    await breaker.recordOutcome(scopes, "declined", []);
    expect(await admit(breaker, scopes)).toMatchObject({ through: false, retryAfter: "30" });
  });

  it("bounds a campaign's tokenizations not answered by a charge or a decline, over many clients", async () => {
    const { breaker, opened } = breakerWith();
    let through = 0;
    for (let i = 0; i < 100; i++) {
      const scopes = breakerScopes(`10.0.0.${i}`, "71777/HOPE");
      const answer = await admit(breaker, scopes);
      if (!answer.through) continue;
      through++;
      await breaker.countToken(scopes);
    }
    expect(through).toBe(15);
    expect(opened).toEqual(["campaign"]);
  });

  it("reserves a BIN's cards as they are admitted: cards sent at once cannot all pass its last slot", async () => {
    const { breaker } = breakerWith();
    // Six lanes at once, a BIN's budget of 3 declines and cards in flight: three go on, three wait.
    const lanes = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        admit(breaker, breakerScopes(`10.2.0.${i}`, "71777/HOPE", "400000")),
      ),
    );
    expect(lanes.filter((lane) => lane.through)).toHaveLength(3);
    expect(lanes.filter((lane) => !lane.through)).toHaveLength(3);
  });

  it("does not hold a popular bank's BIN for its cards in flight once its charges outnumber its declines", async () => {
    const { breaker } = breakerWith();
    for (let i = 0; i < 4; i++) {
      const scopes = breakerScopes(`198.51.100.${i}`, "71777/HOPE", "414720");
      await admit(breaker, scopes);
      await breaker.recordOutcome(scopes, i === 0 ? "declined" : "charged", []);
    }
    // A busy moment: six of its donors' cards on their way to the network at once.
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        admit(breaker, breakerScopes(`198.51.101.${i}`, "71777/HOPE", "414720")),
      ),
    );
    expect(answers.filter((answer) => answer.through)).toHaveLength(6);
  });

  it("gives a card's reservation back when it never reached the upstream", async () => {
    const { breaker, opened } = breakerWith();
    const scopes = breakerScopes("198.51.100.12", "71777/HOPE", "400000");
    // Twenty cards admitted one after another, each refused before the upstream: none spends the BIN's budget of 3.
    for (let i = 0; i < 20; i++) {
      expect(await admit(breaker, scopes)).toMatchObject({ through: true });
      await breaker.release(scopes);
    }
    expect(opened).toEqual([]);
  });

  it("counts a card tokenized again once: a venue's guests making their tokens again do not spend its budget", async () => {
    const { breaker, opened } = breakerWith();
    const scopes = breakerScopes("203.0.113.61");
    // Seven guests' cards, each tokenized twice (the first token refused card_check_required).
    for (let i = 0; i < 7; i++)
      for (let again = 0; again < 2; again++)
        expect(await breaker.admitCard(scopes, { human: false, card: `card-${i}` })).toMatchObject({
          probe: [],
        });
    expect(opened).toEqual([]);
  });

  it("holds a BIN's run after its declines and cards in flight, not the other cards from its client", async () => {
    const { breaker, opened } = breakerWith();
    const tester = breakerScopes("203.0.113.62", "71777/HOPE", "400000");
    // Three in flight at once: the fourth waits (cards in flight count as declines to come).
    for (let i = 0; i < 3; i++) expect(await admit(breaker, tester)).toMatchObject({ through: true });
    expect(await admit(breaker, tester)).toMatchObject({ through: false, code: "rate_limited" });
    expect(opened).toEqual(["bin"]);
    // A guest beside it, another BIN, from the same address, goes on.
    expect(await admit(breaker, breakerScopes("203.0.113.62", "71777/HOPE", "414720"))).toMatchObject({
      through: true,
    });
  });

  it("holds every card at a campaign's open breaker once, a moment, and lets it through when it comes back from the same form", async () => {
    const { breaker } = breakerWith();
    for (let i = 0; i < 10; i++) {
      const scopes = breakerScopes(`10.1.0.${i}`, "71777/HOPE");
      await admit(breaker, scopes);
      await breaker.recordOutcome(scopes, "declined", []);
    }
    // The campaign's 10 declines are spent: a card waits a moment (a tester's script moves on to its
    // next card then), a client seen there as a newcomer…
    const seen = breakerScopes("10.1.0.1", "71777/HOPE");
    expect(await admit(breaker, seen, false, "card-a")).toEqual({
      through: false,
      code: "rate_limited",
      retryAfter: "2",
    });
    const person = breakerScopes("198.51.100.20", "71777/HOPE");
    expect(await admit(breaker, person, false, "card-b")).toEqual({
      through: false,
      code: "rate_limited",
      retryAfter: "2",
    });
    // …and not less, even sent again at once…
    vi.advanceTimersByTime(1000);
    expect(await admit(breaker, person, false, "card-b")).toMatchObject({ through: false, retryAfter: "1" });
    // …then its card, come back, goes through (a person's widget comes back by itself).
    vi.advanceTimersByTime(COME_BACK_AFTER_MS);
    for (const [scopes, card] of [
      [person, "card-b"],
      [seen, "card-a"],
    ] as const)
      expect(await breaker.admitCard(scopes, { human: false, card })).toEqual({
        probe: [],
        passed: ["campaign:71777/HOPE"],
        returned: true,
      });
    // The same card from another form has not come back: a tester opens a form per card.
    expect(
      await breaker.admitCard(person, { human: false, card: "card-b", form: "another-form" }).catch((e) => e),
    ).toMatchObject({ code: "rate_limited" });
    // Held before anything counts it (breaker.ts's peek), so waiting spends none of its form session.
    const another = breakerScopes("198.51.100.21", "71777/HOPE");
    await expect(breaker.peek(another, { card: "card-c" })).rejects.toMatchObject({ code: "rate_limited" });
    vi.advanceTimersByTime(COME_BACK_AFTER_MS);
    await breaker.peek(another, { card: "card-c" });
    expect(await admit(breaker, another, false, "card-c")).toMatchObject({ through: true });
  });

  it("a guest's charge whose token was made before the venue's breaker opened is held once, and passes when the same form sends it again; a stockpile's that never comes back waits", async () => {
    const { breaker } = breakerWith();
    const venue = breakerScopes("203.0.113.82", "71777/HOPE");
    // The guest's token is made while the venue's breakers are closed…
    expect(await admit(breaker, venue, false, "guest-card")).toMatchObject({ through: true });
    await breaker.countToken(venue, "guest-card");
    // …then a tester beside the guest spends the venue's budget of declines before the gift is sent.
    for (let i = 0; i < 3; i++) await breaker.refusedDead(venue);
    const charge = (card: string, form: string) =>
      breaker.admitCharge(venue, { human: false, probe: [], card, form }).catch((error: unknown) => error);
    expect(await charge("guest-card", "guest-form")).toMatchObject({
      code: "rate_limited",
      headers: { "Retry-After": "2" },
    });
    expect(await charge("stockpiled-card", "tester-form")).toMatchObject({ code: "rate_limited" });
    vi.advanceTimersByTime(COME_BACK_AFTER_MS);
    // The guest's gift, sent again from the same form, passes and counts with the cards that came back.
    expect(await charge("guest-card", "guest-form")).toEqual({ probe: [], returned: true });
    // A token without its card and form (none was noted) waits out the breaker's 30 s, as before.
    await expect(breaker.admitCharge(venue, { human: false, probe: [] })).rejects.toMatchObject({
      code: "rate_limited",
      headers: { "Retry-After": "29" },
    });
  });

  it("at a venue's open client breaker, lets each guest's card through when it comes back, never a tester's that moves on; a dead card that comes back closes that way", async () => {
    const { breaker } = breakerWith();
    const venue = breakerScopes("203.0.113.82", "71777/HOPE");
    // A tester's dead number, refused before the network again and again: the client's breaker opens.
    for (let i = 0; i < 3; i++) await breaker.refusedDead(venue, { card: "dead", form: `tester-${i}` });
    // The tester's cards, a form each, are held once and never come back: none goes through.
    for (let n = 0; n < 20; n++)
      expect(
        await breaker
          .admitCard(venue, { human: false, card: `live-${n}`, form: `tester-form-${n}` })
          .catch((e) => e),
      ).toMatchObject({ code: "rate_limited" });
    // A guest's widget comes back with the same card from the same form: through, once held.
    const guest = { human: false, card: "guest-card", form: "guest-form" };
    await expect(breaker.peek(venue, guest)).rejects.toMatchObject({ code: "rate_limited" });
    vi.advanceTimersByTime(COME_BACK_AFTER_MS);
    await breaker.peek(venue, guest);
    expect(await breaker.admitCard(venue, guest)).toEqual({
      probe: [],
      passed: ["client:203.0.113.82", "campaign:71777/HOPE"],
      returned: true,
    });
    // A tester that comes back too, with its dead number: three such refusals and cards that come
    // back meet the breaker as any card does (they wait for its probe).
    for (let i = 0; i < 3; i++) {
      const dead = { card: "dead", form: `patient-${i}` };
      await breaker.peek(venue, dead).catch(() => undefined);
      vi.advanceTimersByTime(COME_BACK_AFTER_MS);
      await breaker.peek(venue, dead);
      await breaker.refusedDead(venue, dead);
    }
    const late = { human: false, card: "late-card", form: "late-form" };
    await breaker.peek(venue, late).catch(() => undefined);
    vi.advanceTimersByTime(COME_BACK_AFTER_MS);
    const held = await breaker.admitCard(venue, late).catch((e: ProblemError) => e);
    expect(held).toMatchObject({ code: "rate_limited" });
    expect(Number((held as ProblemError).headers["Retry-After"])).toBeGreaterThan(COME_BACK_AFTER_MS / 1000);
  });

  it("says how many people it holds now and how long the one held longest has waited, not the cards held a moment that never come back", async () => {
    const { breaker, counters } = breakerWith();
    const held = async () => heldNow(await counters.notesUnder("breaker:"), Date.now());
    const venue = breakerScopes("203.0.113.9", "71777/HOPE");
    for (let i = 0; i < 3; i++) {
      await admit(breaker, venue, false, `dead-${i}`);
      await breaker.recordOutcome(venue, "declined", []);
    }
    expect(await held()).toEqual({ people: 0, longestS: 0 });
    // A tester's cards, each held a moment and never back: nobody held.
    for (let n = 0; n < 10; n++) await admit(breaker, venue, false, `tester-${n}`);
    expect(await held()).toEqual({ people: 0, longestS: 0 });
    // Three cards that came back were declined: the cards that come back now wait for the probe.
    for (let n = 0; n < 3; n++) await breaker.recordOutcome(venue, "declined", [], true);
    // Two guests behind the venue's address, their widgets coming back every 15 s.
    await admit(breaker, venue, false, "guest-1");
    vi.advanceTimersByTime(15_000);
    await admit(breaker, venue, false, "guest-1");
    await admit(breaker, venue, false, "guest-2");
    vi.advanceTimersByTime(COME_BACK_AFTER_MS);
    await admit(breaker, venue, false, "guest-2");
    expect(await held()).toEqual({ people: 2, longestS: 2 });
    vi.advanceTimersByTime(15_000);
    await admit(breaker, venue, false, "guest-1");
    expect(await held()).toEqual({ people: 2, longestS: 17 });
    // Nobody comes back: after 20 s nobody is held.
    vi.advanceTimersByTime(21_000);
    expect(await held()).toEqual({ people: 0, longestS: 0 });
  });

  it("stops letting cards that came back through once they are declined: a tester that comes back too spends it in a few cards", async () => {
    const { breaker } = breakerWith();
    for (let i = 0; i < 10; i++) {
      const scopes = breakerScopes(`10.1.0.${i}`, "71777/HOPE");
      await admit(breaker, scopes);
      await breaker.recordOutcome(scopes, "declined", []);
    }
    const cameBack = async (n: number) => {
      const scopes = breakerScopes(`10.3.0.${n}`, "71777/HOPE");
      await admit(breaker, scopes, false, `dead-${n}`);
      vi.advanceTimersByTime(COME_BACK_AFTER_MS);
      return { scopes, answer: await admit(breaker, scopes, false, `dead-${n}`) };
    };
    for (let n = 0; n < 3; n++) {
      const { scopes, answer } = await cameBack(n);
      expect(answer).toMatchObject({ through: true });
      await breaker.recordOutcome(scopes, "declined", [], true);
    }
    // Three declined: the next card that comes back meets the breaker as any card does.
    const held = (await cameBack(3)).answer;
    expect(held).toMatchObject({ through: false, code: "rate_limited" });
    expect(Number(held.through ? 0 : held.retryAfter)).toBeGreaterThan(COME_BACK_AFTER_MS / 1000);
  });

  it("a crowd's charges widen the budgets: 228 charged and 12 declined never open a breaker", async () => {
    const { breaker, opened } = breakerWith();
    for (let i = 0; i < 240; i++) {
      const scopes = breakerScopes(`198.51.${100 + Math.floor(i / 250)}.${i % 250}`, "71777/HOPE");
      expect(await admit(breaker, scopes)).toMatchObject({ through: true });
      await breaker.countToken(scopes);
      await breaker.recordOutcome(scopes, i % 20 === 0 ? "declined" : "charged", []);
    }
    expect(opened).toEqual([]);
  });

  it("says a scope is pressed at half a budget, so its cards are challenged before a breaker opens", async () => {
    const { breaker, opened } = breakerWith();
    const scopes = breakerScopes("198.51.100.10");
    // Half of its 8 tokenizations not answered by a charge or a decline.
    for (let i = 0; i < 4; i++) {
      expect(await breaker.pressed(scopes)).toBe(false);
      await admit(breaker, scopes);
      await breaker.countToken(scopes);
    }
    expect(await breaker.pressed(scopes)).toBe(true);
    expect(opened).toEqual([]);
  });

  it("lets a person who passed the human check through an open breaker", async () => {
    const { breaker } = breakerWith();
    const scopes = breakerScopes("203.0.113.60");
    for (let i = 0; i < 3; i++) {
      await admit(breaker, scopes);
      await breaker.recordOutcome(scopes, "declined", []);
    }
    expect(await admit(breaker, scopes)).toMatchObject({ through: false });
    expect(await admit(breaker, scopes, true)).toEqual({ through: true, probe: [] });
    expect(await breaker.openIn(scopes)).toEqual([
      { scope: "client:203.0.113.60", state: expect.objectContaining({ openS: 30 }) },
    ]);
  });
});
