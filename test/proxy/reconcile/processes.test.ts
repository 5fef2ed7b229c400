// Two proxy PROGRAMS on one PostgreSQL, both reconciling every second in front of the sandbox
// (with latency, so their passes overlap): several unknown attempts are each resolved once, by
// one of them, and matched one-to-one with the sandbox's own transactions report.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DonationStatusResponseSchema } from "../../../contract/api";
import { sql, testDatabase } from "../../helpers/postgres";
import { spawnProxy, type ProxyProcess } from "../../helpers/proxy-process";
import { startSandbox, type SandboxHandle } from "../../helpers/sandbox";
import { client, collected, donate, donationBody, tokenize, upstreamCalls, DONATE_PATH } from "../support";

const SECRET = randomBytes(32).toString("hex");
/** A 999.99 is `not_charged` once this long has passed without a report row. */
const SETTLE_S = 5;
/** Four charged and never answered, two never answered and never charged. */
const AMOUNTS = ["777.77", "999.99", "777.77", "777.77", "999.99", "777.77"];

let sandbox: SandboxHandle;
let database: string;
let proxies: ProxyProcess[] = [];

beforeAll(async () => {
  // Each report takes a while: a pass of one proxy is still running when the other's begins.
  sandbox = await startSandbox({ latencyMs: 150 });
  database = await testDatabase();
  const env = {
    UPSTREAM_BASE_URL: sandbox.url,
    DATABASE_URL: database,
    GIVEKIT_SIGNING_SECRET: SECRET,
    UPSTREAM_TIMEOUT_MS: "1000",
    GIVEKIT_RECONCILE_INTERVAL_S: "1",
    GIVEKIT_RECONCILE_SETTLE_S: String(SETTLE_S),
    GIVEKIT_RATE_DONATIONS: "1000",
    GIVEKIT_RATE_DONATION_STATUS: "1000",
    LOG_LEVEL: "info",
  };
  proxies = await Promise.all([spawnProxy(env), spawnProxy(env)]);
}, 60_000);

afterAll(async () => {
  await Promise.all(proxies.map((proxy) => proxy.stop()));
  await sandbox?.close();
});

interface AttemptRow {
  reference: string;
  amount: string;
  state: string;
  transaction_id: string | null;
}

describe("two proxy programs reconciling at once on one PostgreSQL", () => {
  it("resolve each unknown attempt once, matched one-to-one with the sandbox's report", async () => {
    const apis = proxies.map((proxy) => client(proxy.url));
    // Every donor their own: the two proxies take turns.
    const references = await Promise.all(
      AMOUNTS.map(async (amount, i) => {
        const api = apis[i % 2]!;
        const body = donationBody(await tokenize(api), {
          amount,
          donor: { first_name: "Ana", last_name: `Doe${i}`, email: `ana${i}@example.org` },
        });
        const reply = await donate(api, body);
        expect(reply.status).toBe(202);
        return reply.json.donation.reference as string;
      }),
    );

    // Each donor asks, now one proxy and now the other, until the outcome is known.
    const until = Date.now() + 40_000;
    const finals = await Promise.all(
      references.map(async (reference, i) => {
        for (let ask = i; ; ask++) {
          const reply = await apis[ask % 2]!.get(`/v1/donations/${reference}`);
          expect(reply.status).toBe(200);
          const { donation } = DonationStatusResponseSchema.parse(reply.json);
          if (donation.status !== "Pending" || Date.now() > until) return donation;
          await new Promise((resolve) => setTimeout(resolve, 300));
        }
      }),
    );
    expect(finals.map((final) => final.status)).toEqual(
      AMOUNTS.map((amount) => (amount === "777.77" ? "Success" : "NotCharged")),
    );

    // The store: charged attempts hold the transaction of the report row tagged with their
    // reference, each its own; the others are not_charged.
    const rows = await collected(sandbox);
    expect(rows).toHaveLength(4);
    const attempts = await sql<AttemptRow>(
      database,
      "SELECT reference, amount, state, transaction_id FROM donation_attempts ORDER BY seq",
    );
    expect(attempts.map((attempt) => attempt.reference).toSorted()).toEqual(references.toSorted());
    // What each attempt should hold: its own tagged row's transaction, or nothing when uncharged.
    const expected = attempts.map((attempt) => {
      const tagged = rows.filter((r) => r.source === `api_via_givekit.${attempt.reference}`);
      return attempt.amount === "999.99"
        ? { reference: attempt.reference, state: "not_charged", transaction_id: null, rows: 0 }
        : {
            reference: attempt.reference,
            state: "succeeded",
            transaction_id: tagged[0] ? String(tagged[0].transaction_id) : "no tagged row",
            rows: 1,
          };
    });
    expect(
      attempts.map((attempt) => ({
        reference: attempt.reference,
        state: attempt.state,
        transaction_id: attempt.transaction_id,
        rows: rows.filter((r) => r.source === `api_via_givekit.${attempt.reference}`).length,
      })),
    ).toEqual(expected);
    const given = attempts.map((attempt) => attempt.transaction_id).filter((id) => id !== null);
    expect(given.toSorted()).toEqual(rows.map((row) => String(row.transaction_id)).toSorted());
    for (const [i, final] of finals.entries()) {
      const attempt = attempts.find((a) => a.reference === references[i])!;
      expect(final.transaction_id ?? null).toBe(attempt.transaction_id);
    }
    // No donate was sent twice.
    expect(await upstreamCalls(sandbox, DONATE_PATH)).toBe(AMOUNTS.length);

    // The logs of both, once flushed: each attempt was resolved by exactly one proxy, once.
    await Promise.all(proxies.map((proxy) => proxy.stop()));
    const resolved = proxies.flatMap((proxy, index) =>
      proxy
        .output()
        .stdout.split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((line) => line.msg === "attempt reconciled")
        .map((line) => ({
          proxy: index,
          reference: line.reference,
          state: line.state,
          id: line.transaction_id,
        })),
    );
    expect(resolved.map((line) => line.reference).toSorted()).toEqual(references.toSorted());
    for (const line of resolved) {
      const attempt = attempts.find((a) => a.reference === line.reference)!;
      expect([line.state, line.id ?? null]).toEqual([attempt.state, attempt.transaction_id]);
    }
  }, 90_000);
});
