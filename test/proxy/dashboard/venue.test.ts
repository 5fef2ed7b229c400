// The venue button, on SQLite and on PostgreSQL: a card tester and 30 guests share the venue's
// address, the tester's declines open its client breaker and the guests wait ("Checking…"); the
// events desk, signed in from that address, presses "Let this network through" (a second
// confirmation naming what the breaker held), and every guest is charged once (the sandbox's own
// records), while the tester's further dead cards still meet its BIN's breaker. Bad presses get a
// clear answer and change nothing; "End now" ends it; a revoked session cannot press.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { PowChallenge } from "../../../contract/api";
import type { DashboardData } from "../../../contract/dashboard";
import { solvePow } from "../../helpers/pow-solver";
import { givekit } from "../../helpers/cli";
import { withCheckDigit } from "../../helpers/cards";
import { DEMO } from "../../helpers/sandbox";
import {
  collected,
  donationBody,
  formSession,
  frameCard,
  logLines,
  postCard,
  useStack,
  type Stack,
} from "../support";
import { formTokenIn } from "../../helpers/dashboard";

const VENUE = "203.0.113.80";
/** Another network a member of staff may look from. */
const ELSEWHERE = "198.51.100.80";
const SECRET = "s".repeat(64);
const fromVenue = { "X-Forwarded-For": VENUE };
const GUESTS = 30;
const guestCard = (i: number) => withCheckDigit(`424242${String(i).padStart(9, "0")}`);
const deadCard = (i: number) => withCheckDigit(`400000${String(i).padStart(5, "0")}`, "0002");

/**
 * A gift as the widget makes it: a card tokenized through the frame (solving a challenge asked),
 * then the donation; a token to be checked again is made again, as the frame does.
 */
async function give(ctx: Stack, card: string, donor: { first_name: string; last_name: string }) {
  const session = await formSession(ctx.api, fromVenue);
  const key = randomUUID();
  for (let round = 0; ; round++) {
    let token = await postCard(ctx.api, frameCard(card, { form_session: session }), { headers: fromVenue });
    if (token.json.code === "challenge_required") {
      const proof = await solvePow(token.json.challenge as PowChallenge);
      token = await postCard(ctx.api, frameCard(card, { form_session: session, challenge_token: proof }), {
        headers: fromVenue,
      });
    }
    if (token.status !== 201) return token;
    const gift = await ctx.api.post(
      "/v1/donations",
      donationBody(token.json.token as string, {
        donor: { ...donor, email: `${donor.last_name}@example.org` },
      }),
      { headers: { ...fromVenue, "Idempotency-Key": round === 0 ? key : randomUUID() } },
    );
    if (gift.json.code !== "card_check_required" || round === 2) return gift;
  }
}

describe.each(["sqlite", "postgres"] as const)("the venue button on %s", (store) => {
  const ctx = useStack({
    proxy: {
      store,
      env: {
        GIVEKIT_TRUST_PROXY: "1",
        GIVEKIT_SIGNING_SECRET: SECRET,
        GIVEKIT_PUBLIC_URL: "https://give.hope.example",
        GIVEKIT_BREAKER_CLIENT_DECLINES: "2",
        GIVEKIT_BREAKER_OPEN_S: "600",
        // The venue's one address gives as a crowd does: its rate limits are not what is tested.
        GIVEKIT_RATE_PAYMENT_TOKENS: "500",
        GIVEKIT_RATE_PAYMENT_TOKENS_PER_MIN: "5000",
        GIVEKIT_RATE_DONATIONS: "500",
        GIVEKIT_RATE_DONATIONS_PER_MIN: "5000",
        // Seventy form sessions in a few seconds from one address pass the default bucket (60) on a quiet machine.
        GIVEKIT_RATE_FORM_SESSIONS: "500",
        GIVEKIT_RATE_FORM_SESSIONS_PER_MIN: "5000",
      },
    },
  });
  const cliEnv = (): NodeJS.ProcessEnv => ({
    UPSTREAM_BASE_URL: ctx.sandbox.url,
    UPSTREAM_PRIVATE_TOKEN: DEMO.hope.privateToken,
    UPSTREAM_PUBLIC_TOKEN: DEMO.hope.publicToken,
    GIVEKIT_DATA_DIR: ctx.proxy.dataDir,
    GIVEKIT_SIGNING_SECRET: SECRET,
    GIVEKIT_PUBLIC_URL: "https://give.hope.example",
    ...(store === "postgres" ? { DATABASE_URL: ctx.proxy.databaseUrl! } : {}),
  });

  /** A member of staff (the events desk) signed in from the venue: the cookie and the page's form token. */
  async function signIn(name = "events desk") {
    const made = await givekit(["dashboard", "invite", "--name", name, "--for", "12h"], cliEnv());
    expect(made.code).toBe(0);
    const invite = new URL(made.out.split("\n")[0]!).searchParams.get("invite")!;
    const signed = await fetch(`${ctx.proxy.url}/dashboard/sign-in?invite=${encodeURIComponent(invite)}`, {
      headers: fromVenue,
    });
    expect(signed.status).toBe(200);
    const cookie = signed.headers.get("set-cookie")!.split(";")[0]!;
    const page = await (
      await fetch(`${ctx.proxy.url}/dashboard`, { headers: { ...fromVenue, cookie } })
    ).text();
    const formToken = formTokenIn(page);
    return { cookie, formToken };
  }

  const press = (
    desk: { cookie: string; formToken?: string },
    body: unknown,
    path = "/dashboard/venue",
    headers: Record<string, string> = {},
  ) =>
    fetch(`${ctx.proxy.url}${path}`, {
      method: "POST",
      headers: {
        ...fromVenue,
        cookie: desk.cookie,
        "Content-Type": "application/json",
        "Sec-Fetch-Site": "same-origin",
        ...(desk.formToken ? { "X-Givekit-Form": desk.formToken } : {}),
        ...headers,
      },
      body: JSON.stringify(body),
    });

  async function data(desk: { cookie: string }, from = VENUE) {
    const res = await fetch(`${ctx.proxy.url}/dashboard/data.json`, {
      headers: { "X-Forwarded-For": from, cookie: desk.cookie },
    });
    const text = await res.text();
    // The venue's address is never shown.
    expect(text).not.toContain(VENUE);
    return JSON.parse(text) as DashboardData;
  }

  it("lets the held guests through in one press, once, the tester still bounded by its BIN's breaker", async () => {
    // The tester's two dead cards open the venue's client breaker.
    for (const i of [1, 2])
      expect((await give(ctx, deadCard(i), { first_name: "Tess", last_name: `T${i}` })).json.code).toBe(
        "card_declined",
      );
    // Every guest waits.
    for (let i = 0; i < GUESTS; i++) {
      const held = await postCard(ctx.api, frameCard(guestCard(i)), { headers: fromVenue });
      expect(held.status).toBe(429);
      expect(held.json).toMatchObject({ code: "rate_limited", breaker: true });
      expect(held.json.detail).toContain("Checking…");
    }
    const desk = await signIn();
    const before = await data(desk);
    // Every guest's card counted once, whatever the retries: "30 cards waiting at this network".
    expect(before.defence.venue).toMatchObject({
      allowed: null,
      clientsHeld: 1,
      cardsHeld: GUESTS,
      cardsHeldElsewhere: 0,
    });
    expect(before.defence.venue!.heldUntil).not.toBeNull();
    // The same desk looking from another network: "30 cards waiting at one client", not its own.
    expect((await data(desk, ELSEWHERE)).defence.venue).toMatchObject({
      heldUntil: null,
      allowed: null,
      clientsHeld: 1,
      cardsHeld: 0,
      cardsHeldElsewhere: GUESTS,
    });

    // Bad presses: each a clear answer, nothing allowed.
    const noToken = await press({ cookie: desk.cookie }, { hours: 6, confirm: true });
    expect(noToken.status).toBe(403);
    expect(await noToken.json()).toMatchObject({ code: "origin_not_allowed" });
    const crossSite = await press(desk, { hours: 6, confirm: true }, "/dashboard/venue", {
      "Sec-Fetch-Site": "cross-site",
    });
    expect(crossSite.status).toBe(403);
    const noCookie = await press({ cookie: "", formToken: desk.formToken }, { hours: 6, confirm: true });
    expect(noCookie.status).toBe(401);
    for (const hours of [0, 25, 1.5, "6", null]) {
      const wrong = await press(desk, { hours, confirm: true });
      expect(wrong.status).toBe(400);
      expect(await wrong.json()).toMatchObject({
        code: "validation_failed",
        errors: { hours: [expect.any(String)] },
      });
    }
    // A known tester's network: the first press asks again, naming what the breaker held.
    const first = await press(desk, { hours: 6 });
    expect(first.status).toBe(409);
    const asked = await first.json();
    expect(asked).toMatchObject({ code: "confirmation_required", held: { why: "declines", declined: 2 } });
    expect(asked.detail).toContain("2 declined cards");
    expect((await data(desk)).defence.venue!.allowed).toBeNull();
    expect((await givekit(["defence", "status"], cliEnv())).out).toContain("ranges let through: none");

    // Two staff, each signed in with an invite of their own, confirm at once: one allowance,
    // logged once with the name of the invite whose press made it.
    const colleague = await signIn("front desk");
    // One's cookie with the other's form token: refused, as from another site.
    const swapped = await press(
      { cookie: desk.cookie, formToken: colleague.formToken },
      { hours: 6, confirm: true },
    );
    expect(swapped.status).toBe(403);
    expect(await swapped.json()).toMatchObject({ code: "origin_not_allowed" });
    const pressedAt = Date.now();
    const both = await Promise.all([
      press(desk, { hours: 6, confirm: true }),
      press(colleague, { hours: 6, confirm: true }),
    ]);
    expect(both.map((res) => res.status).toSorted()).toEqual([200, 201]);
    const answers = await Promise.all(both.map((res) => res.json()));
    const maker = both[0]!.status === 201 ? "events desk" : "front desk";
    for (const answer of answers) expect(answer.venue.allowed).toMatchObject({ by: maker });
    expect(answers.filter((answer) => answer.already === true)).toHaveLength(1);
    const allowLines = logLines(ctx.proxy).filter((line) => line.event === "venue_allow");
    expect(allowLines).toEqual([
      expect.objectContaining({ by: maker, hours: 6, known_tester_confirmed: true }),
    ]);
    const until = Date.parse(answers[0].venue.allowed.until as string);
    expect(until - pressedAt).toBeGreaterThan(6 * 3_600_000 - 60_000);
    expect(until - pressedAt).toBeLessThanOrEqual(6 * 3_600_000 + 5000);
    // The command line sees it too.
    expect((await givekit(["defence", "status"], cliEnv())).out).toMatch(/ranges let through: 1\n/);

    // Every waiting guest gives, within 15 s of the press, each charged once.
    for (let i = 0; i < GUESTS; i++) {
      const gift = await give(ctx, guestCard(i), { first_name: "Guest", last_name: `G${i}` });
      expect(gift.status, JSON.stringify(gift.json)).toBe(200);
    }
    expect(Date.now() - pressedAt).toBeLessThan(15_000);
    const charged = (await collected(ctx.sandbox, "HOPE")).filter((row) => row.first_name === "Guest");
    expect(charged.map((row) => row.last_name).toSorted()).toEqual(
      Array.from({ length: GUESTS }, (_, i) => `G${i}`).toSorted(),
    );

    // The tester's further dead cards: its BIN's breaker (3 declines) still holds them.
    const tried: (number | string)[] = [];
    for (let i = 3; i < 10; i++) {
      const answer = await give(ctx, deadCard(i), { first_name: "Tess", last_name: `T${i}` });
      tried.push(answer.json.code === "card_declined" ? "card_declined" : answer.status);
    }
    expect(tried.filter((each) => each === "card_declined").length).toBeLessThanOrEqual(1);
    expect(tried.filter((each) => each !== "card_declined").every((each) => each === 429)).toBe(true);
    const declined = (await ctx.sandbox.transactions({ keyword: "HOPE" })).filter(
      (row) => row.first_name === "Tess",
    );
    expect(declined.length).toBeLessThanOrEqual(3);

    // End now: the network waits again, logged with the name.
    const ended = await press(desk, {}, "/dashboard/venue/end");
    expect(ended.status).toBe(200);
    expect((await ended.json()).venue.allowed).toBeNull();
    expect(logLines(ctx.proxy).find((line) => line.event === "venue_allow_ended")).toMatchObject({
      by: "events desk",
      was_by: maker,
    });
    expect((await postCard(ctx.api, frameCard(guestCard(99)), { headers: fromVenue })).status).toBe(429);
    expect((await press(desk, {}, "/dashboard/venue/end")).status).toBe(404);

    // A revoked session cannot press.
    expect((await givekit(["dashboard", "revoke"], cliEnv())).code).toBe(0);
    expect((await press(desk, { hours: 2, confirm: true })).status).toBe(401);
  }, 120_000);
});
