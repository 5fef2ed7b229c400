// Card testing from many addresses, against the whole-traffic signals and defence mode: two
// proxies on one PostgreSQL count together; money is counted in the sandbox's own report.
import { randomBytes, randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { PowChallenge } from "../../contract/api";
import { sql, testDatabase } from "../helpers/postgres";
import { solvePow } from "../helpers/pow-solver";
import { startProxy, type ProxyHandle } from "../helpers/proxy";
import { startSandbox, type SandboxHandle } from "../helpers/sandbox";
import {
  CARDS,
  client,
  donationBody,
  formSession,
  logLines,
  postCard,
  withCheckDigit,
  type Client,
  frameCard,
} from "./support";

const TOKEN_PATH = "/api/v2/donations/create_payment_token";
const BOT_CARDS = 300;
const BOT_ADDRESSES = 100;
const MAX_REACHING = 30;
/** Long enough for the person's steps below to happen inside defence mode, short for the suite. */
const QUIET_S = 5;

/** A Luhn-valid 16-digit Visa number ending in 0002 (the sandbox declines all of them), one per n. */
function decliningCard(n: number): string {
  return withCheckDigit(`4${String(n).padStart(10, "0")}`, "0002");
}

/** A fake Turnstile siteverify: "good-…" passes once; anything else is forged; "down" mode is a 503. */
let verify: Server;
let verifyUrl = "";
let verifyDown = false;
const usedProofs = new Set<string>();
beforeAll(async () => {
  verify = createServer((req, res) => {
    let text = "";
    req.on("data", (chunk: Buffer) => (text += chunk.toString()));
    req.on("end", () => {
      if (verifyDown) return void res.writeHead(503).end("down");
      const { response } = JSON.parse(text) as { response: string };
      const success = response.startsWith("good-") && !usedProofs.has(response);
      usedProofs.add(response);
      res
        .writeHead(200, { "Content-Type": "application/json" })
        .end(JSON.stringify({ success, "error-codes": success ? [] : ["invalid-input-response"] }));
    });
  });
  await new Promise<void>((resolve) => verify.listen(0, "127.0.0.1", resolve));
  verifyUrl = `http://127.0.0.1:${(verify.address() as AddressInfo).port}/siteverify`;
});
afterAll(async () => {
  verify.closeAllConnections();
  await new Promise((resolve) => verify.close(resolve));
});

interface Pair {
  sandbox: SandboxHandle;
  proxies: ProxyHandle[];
  apis: Client[];
  databaseUrl: string;
}
let pair: Pair | null = null;
afterEach(async () => {
  if (!pair) return;
  await Promise.all(pair.proxies.map((proxy) => proxy.close()));
  await pair.sandbox.close();
  pair = null;
});

/** Two proxies on one PostgreSQL, trusting one X-Forwarded-For hop so a test can be 100 addresses. */
async function twoProxies(env: Record<string, string>): Promise<Pair> {
  const sandbox = await startSandbox();
  const databaseUrl = await testDatabase();
  const shared = {
    DATABASE_URL: databaseUrl,
    GIVEKIT_SIGNING_SECRET: randomBytes(32).toString("hex"),
    GIVEKIT_TRUST_PROXY: "1",
    GIVEKIT_DEFENCE_QUIET_S: String(QUIET_S),
    ...env,
  };
  const proxies: ProxyHandle[] = [];
  for (let i = 0; i < 2; i++) proxies.push(await startProxy({ upstreamUrl: sandbox.url, env: shared }));
  pair = { sandbox, proxies, apis: proxies.map((proxy) => client(proxy.url)), databaseUrl };
  return pair;
}

// A bot that learnt the cheap filters: honeypot empty, a frame's form session (postCard asks for
// one; the helper's proxies set no least form time), the campaign named.
const cardBody = frameCard;

/** The bot: 300 declining cards from 100 addresses (3 each), over both proxies, a few at a time. */
async function runBot(apis: Client[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < BOT_CARDS) {
      const n = next++;
      const headers = { "X-Forwarded-For": `10.0.${Math.floor(n / BOT_ADDRESSES)}.${n % BOT_ADDRESSES}` };
      const api = apis[n % apis.length]!;
      const token = await postCard(api, cardBody(decliningCard(n)), { headers });
      if (token.status !== 201) continue;
      await api.post("/v1/donations", donationBody(token.json.token, { amount: "5.00" }), {
        headers: { ...headers, "Idempotency-Key": randomUUID() },
      });
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
}

/** Donations that reached the upstream, per the sandbox's report: declined and collected rows. */
async function reached(sandbox: SandboxHandle): Promise<number> {
  const rows = await sandbox.transactions();
  return rows.filter((row) => row.status === "declined" || row.status === "collected").length;
}

const allLogs = (p: Pair) => p.proxies.flatMap((proxy) => logLines(proxy));

/** Prints the figures proxy/GUIDE.md quotes: donations reaching the upstream, time to defence mode. */
function printFigures(label: string, p: Pair, startedAt: number, reaching: number): void {
  const first = allLogs(p)
    .filter((line) => line.event === "defence_mode_on")
    .toSorted((a, b) => Number(a.time) - Number(b.time))[0];
  console.warn(
    `card-testing figures (${label}): ${reaching} of ${BOT_CARDS} donations reached the upstream; ` +
      `defence mode entered ${first ? `${Number(first.time) - startedAt} ms after the attack began (${String(first.scope)}, ${String(first.signal)})` : "never"}`,
  );
}

/** A person giving while the tester works: a donor of their own (the tester's declines refuse its donor). */
const PERSON = { first_name: "Rosa", last_name: "Park", email: "rosa.park@example.org" };

describe("card testing from many addresses, two proxies on one PostgreSQL", () => {
  it(`holds a bot over ${BOT_ADDRESSES} addresses to ${MAX_REACHING} donations; a person who passes the challenge gives once`, async () => {
    const p = await twoProxies({
      TURNSTILE_SITE_KEY: "1x-site",
      TURNSTILE_SECRET: "1x-secret",
      TURNSTILE_VERIFY_URL: verifyUrl,
      // The signals are under test here, not the BIN's breaker (test/proxy/defence/breaker-crowds.ts),
      // which holds this bot's one BIN after three cards, before any signal crosses.
      GIVEKIT_BREAKER_BIN_DECLINES: "1000",
    });
    const startedAt = Date.now();
    await runBot(p.apis);
    const reaching = await reached(p.sandbox);
    printFigures("Turnstile", p, startedAt, reaching);
    expect(reaching).toBeLessThanOrEqual(MAX_REACHING);
    expect(reaching).toBeGreaterThan(0);
    // Entry lines over both proxies (a scope whose quiet period passed mid-run enters again): the
    // campaign (its tester's one donor declined from three addresses) or all campaigns (a BIN run).
    const on = allLogs(p).filter((line) => line.event === "defence_mode_on");
    const scopes = on.map((line) => line.scope);
    expect(scopes.length).toBeGreaterThan(0);

    // A person on a new address, on the other proxy: asked for the proof, then gives once.
    const person = { "X-Forwarded-For": "192.0.2.77" };
    const api = p.apis[1]!;
    const asked = await postCard(api, cardBody(CARDS.ok), { headers: person });
    expect(asked.status).toBe(403);
    expect(asked.json.code).toBe("challenge_required");
    const forged = await postCard(api, cardBody(CARDS.ok, { challenge_token: "forged" }), {
      headers: person,
    });
    expect(forged.status).toBe(403);
    expect(forged.json.code).toBe("challenge_failed");
    const tokenCalls = (await p.sandbox.requests()).filter((r) => r.path === TOKEN_PATH).length;
    const proof = `good-${randomUUID()}`;
    const token = await postCard(api, cardBody(CARDS.ok, { challenge_token: proof }), {
      headers: person,
    });
    expect(token.status).toBe(201);
    expect((await p.sandbox.requests()).filter((r) => r.path === TOKEN_PATH).length).toBe(tokenCalls + 1);
    // The same proof again is a replay.
    const replay = await postCard(api, cardBody(CARDS.ok, { challenge_token: proof }), {
      headers: person,
    });
    expect(replay.json.code).toBe("challenge_failed");
    const gift = await api.post(
      "/v1/donations",
      donationBody(token.json.token, { amount: "5.00", donor: PERSON }),
      {
        headers: { ...person, "Idempotency-Key": randomUUID() },
      },
    );
    expect(gift.status).toBe(200);
    const mine = (await p.sandbox.transactions({ status: "collected" })).filter(
      (row) => row.last_4 === "4242",
    );
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ amount: "5.00" });

    // No card number anywhere: not in a log line, not in any table of the shared database.
    const everything = p.proxies.flatMap((proxy) => proxy.logs).join("\n");
    const names = await sql<{ table_name: string }>(
      p.databaseUrl,
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
    );
    const dumps: string[] = [];
    for (const { table_name } of names)
      dumps.push(JSON.stringify(await sql(p.databaseUrl, `SELECT * FROM "${table_name}"`)));
    const tables = dumps.join("\n");
    for (const n of [0, 1, 150, 299]) {
      expect(everything).not.toContain(decliningCard(n));
      expect(tables).not.toContain(decliningCard(n));
    }
    expect(everything).not.toContain(CARDS.ok);
    expect(tables).not.toContain(CARDS.ok);

    // The verify endpoint down: fail closed, to givekit's own challenge, and say so.
    verifyDown = true;
    const down = await postCard(api, cardBody(CARDS.ok, { challenge_token: `good-${randomUUID()}` }), {
      headers: { "X-Forwarded-For": "192.0.2.80" },
    });
    verifyDown = false;
    expect(down.status).toBe(403);
    expect(down.json).toMatchObject({ code: "challenge_required", challenge: { provider: "pow" } });
    expect(allLogs(p).find((entry) => entry.event === "challenge_unavailable")).toMatchObject({
      fallback: "pow",
    });

    // Defence mode ends after the quiet period (each scope's exit logged by the jobs, which a
    // loaded machine may run a little late): a new card needs no proof again.
    const modeLines = (event: string) =>
      allLogs(p)
        .filter((line) => line.event === event)
        .map((line) => line.scope)
        .toSorted();
    const quietBy = Date.now() + QUIET_S * 1000 + 10_000;
    await new Promise((resolve) => setTimeout(resolve, QUIET_S * 1000 + 200));
    while (modeLines("defence_mode_off").length < modeLines("defence_mode_on").length && Date.now() < quietBy)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const after = await postCard(p.apis[0]!, cardBody(CARDS.ok), {
      headers: { "X-Forwarded-For": "192.0.2.78" },
    });
    expect(after.status).toBe(201);
    // Every entry and every exit is one log line, over both proxies: one exit per scope that entered.
    expect(modeLines("defence_mode_off")).toEqual(modeLines("defence_mode_on"));
  });

  it("without Turnstile, challenges with givekit's proof of work on every proxy, never a fixed rate", async () => {
    const p = await twoProxies({
      GIVEKIT_DEFENCE_DECLINES_PER_MIN: "3",
      GIVEKIT_DEFENCE_CAMPAIGN_DECLINES_PER_MIN: "3",
      // The declines signal is the one under test here: the BIN-run signal (6 cards by default)
      // would otherwise race it and trip first in some runs.
      GIVEKIT_DEFENCE_BIN_CARDS: "1000",
      // Defence mode's challenge is under test here, not the campaign's breaker (its own tests:
      // test/proxy/defence/breaker-crowds.ts), which would keep the people below waiting.
      GIVEKIT_BREAKER_CAMPAIGN_DECLINES: "1000",
      GIVEKIT_BREAKER_CAMPAIGN_TOKENS: "1000",
      GIVEKIT_BREAKER_BIN_DECLINES: "1000",
    });
    const startedAt = Date.now();
    await runBot(p.apis);
    const reaching = await reached(p.sandbox);
    printFigures("proof of work", p, startedAt, reaching);
    expect(reaching).toBeLessThanOrEqual(MAX_REACHING);
    const line = allLogs(p).find((entry) => entry.event === "defence_mode_on");
    // Which signal crosses first depends on the machine's pace (declines, or cards a minute when
    // the bot is slowed): either way the answer is the challenge, never a fixed rate.
    expect(line).toMatchObject({ challenge: "pow" });
    expect([
      "declines_per_min",
      "cards_per_min",
      "tokens_per_min",
      "donor_spread",
      "amount_spread",
    ]).toContain(line!.signal);
    // People keep giving, each paying the work once, whichever proxy they reach.
    for (const [i, api] of p.apis.entries()) {
      const person = { "X-Forwarded-For": `192.0.2.${90 + i}` };
      const session = await formSession(api, person);
      const asked = await postCard(api, cardBody(CARDS.ok, { form_session: session }), { headers: person });
      expect(asked.json).toMatchObject({ code: "challenge_required", challenge: { provider: "pow" } });
      const proof = await solvePow(asked.json.challenge as PowChallenge);
      // Solved on one proxy, checked by the other: the signature is every proxy's.
      const other = p.apis[(i + 1) % p.apis.length]!;
      const token = await postCard(
        other,
        cardBody(CARDS.ok, { form_session: session, challenge_token: proof }),
        {
          headers: person,
        },
      );
      expect(token.status).toBe(201);
      const gift = await other.post(
        "/v1/donations",
        donationBody(token.json.token, { amount: `6.0${i}`, donor: PERSON }),
        {
          headers: { ...person, "Idempotency-Key": randomUUID() },
        },
      );
      expect(gift.status).toBe(200);
    }
    const given = (await p.sandbox.transactions({ status: "collected" })).map((row) => row.amount);
    expect(given.toSorted()).toEqual(["6.00", "6.01"]);
  });
});
