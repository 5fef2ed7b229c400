// `givekit defence status` and `givekit defence allow`, beside a running proxy (on PostgreSQL and
// on SQLite) whose client breaker opens after one decline: the venue let through gives again,
// and the command's mistakes change nothing.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { givekit } from "../../helpers/cli";
import { ALLOWANCE_REFRESH_MS } from "../../../proxy/defence/allowances";
import { DEMO } from "../../helpers/sandbox";
import {
  CARDS,
  collected,
  donationBody,
  formSession,
  logLines,
  postCard,
  useStack,
  frameCard,
} from "../support";

const VENUE = "203.0.113.44";
const card = (number: string) => frameCard(number);

describe.each(["postgres", "sqlite"] as const)("givekit defence, beside a proxy on %s", (store) => {
  const ctx = useStack({
    proxy: {
      env: {
        GIVEKIT_TRUST_PROXY: "1",
        GIVEKIT_BREAKER_CLIENT_DECLINES: "1",
        GIVEKIT_BREAKER_OPEN_S: "600",
      },
      store,
    },
  });
  const env = (): NodeJS.ProcessEnv => ({
    UPSTREAM_BASE_URL: ctx.sandbox.url,
    UPSTREAM_PRIVATE_TOKEN: DEMO.hope.privateToken,
    UPSTREAM_PUBLIC_TOKEN: DEMO.hope.publicToken,
    GIVEKIT_DATA_DIR: ctx.proxy.dataDir,
    ...(store === "postgres" ? { DATABASE_URL: ctx.proxy.databaseUrl! } : {}),
    GIVEKIT_SIGNING_SECRET: "x".repeat(32),
  });
  const fromVenue = { headers: { "X-Forwarded-For": VENUE } };

  it("status lists the open breaker; allow lets the venue through, logged, and a bad range or duration changes nothing", async () => {
    const dead = await postCard(ctx.api, card(CARDS.declined), fromVenue);
    expect(dead.status).toBe(201);
    const declined = await ctx.api.post("/v1/donations", donationBody(dead.json.token as string), {
      headers: { ...fromVenue.headers, "Idempotency-Key": randomUUID() },
    });
    expect(declined.json.code).toBe("card_declined");
    // A person's card held a moment (which a tester's card never comes back through), then sent
    // again before the moment is over: one person waiting.
    const held = { ...card(CARDS.ok), form_session: await formSession(ctx.api, fromVenue.headers) };
    for (let i = 0; i < 2; i++) {
      const answer = await postCard(ctx.api, held, fromVenue);
      expect(answer.status).toBe(429);
      expect(answer.json).toMatchObject({ code: "rate_limited", breaker: true });
    }

    const status = await givekit(["defence", "status"], env());
    expect(status.code).toBe(0);
    expect(status.out).toContain("scrutinised clients (their breaker open): 1");
    expect(status.out).toMatch(
      new RegExp(`client:${VENUE.replaceAll(".", "\\.")}: opened \\S+, cards wait until`),
    );
    expect(status.out).toContain("ranges let through: none");
    // The good card held at the venue's breaker: one person waiting now.
    expect(status.out).toMatch(/people held now: 1, the longest for \d+ s/);

    // Mistakes: named, exit 2, nothing stored.
    for (const [args, named] of [
      [["defence", "allow", "203.0.113.0/33", "--for", "6h"], /the prefix must be 8 to 32/],
      [["defence", "allow", "the-venue", "--for", "6h"], /"the-venue" is not an address or a range/],
      [["defence", "allow", "203.0.113.0/24", "--for", "6 hours"], /--for "6 hours" is not a duration/],
      [
        ["defence", "allow", "203.0.113.0/24", "--for", "30d"],
        /--for "30d" is not a duration of a minute to 7 days/,
      ],
      [["defence", "allow", "203.0.113.0/24"], /say for how long: --for 6h/],
    ] as const) {
      const wrong = await givekit([...args], env());
      expect(wrong.code).toBe(2);
      expect(wrong.err).toMatch(named);
    }
    expect((await givekit(["defence", "status"], env())).out).toContain("ranges let through: none");

    const allowed = await givekit(["defence", "allow", "203.0.113.0/24", "--for", "6h"], env());
    expect(allowed.code).toBe(0);
    expect(allowed.out).toMatch(/^\{"event":"breaker_allow","range":"203\.0\.113\.0\/24"/);
    expect((await givekit(["defence", "status"], env())).out).toMatch(
      /ranges let through: 1\n {2}203\.0\.113\.0\/24 until \S+Z/,
    );
    // The proxy reads it within ALLOWANCE_REFRESH_MS, says so, and the venue's card goes through.
    await new Promise((resolve) => setTimeout(resolve, ALLOWANCE_REFRESH_MS + 200));
    const through = await postCard(ctx.api, card(CARDS.ok), fromVenue);
    expect(through.status).toBe(201);
    // And its gift is charged, once, as the sandbox's own report says.
    const given = await ctx.api.post(
      "/v1/donations",
      donationBody(through.json.token as string, { amount: "31.50" }),
      { headers: { ...fromVenue.headers, "Idempotency-Key": randomUUID() } },
    );
    expect(given.status).toBe(200);
    expect((await collected(ctx.sandbox, "HOPE")).map((row) => row.amount)).toEqual(["31.50"]);
    expect(logLines(ctx.proxy).find((line) => line.event === "breaker_allow")).toMatchObject({
      range: "203.0.113.0/24",
    });
    // Another address, with no breaker open, gives as ever.
    expect(
      await postCard(ctx.api, card(CARDS.ok), { headers: { "X-Forwarded-For": "198.51.100.44" } }),
    ).toMatchObject({
      status: 201,
    });
  }, 60_000);
});
