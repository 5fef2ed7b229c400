// What an operator has of webhooks, on both stores beside a running proxy: `givekit webhooks
// list|retry|replay`, the metrics (tries by outcome, the oldest undelivered event's age) and
// doctor's line, which fails once an endpoint has failed for an hour.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { givekit, jsonLines } from "../helpers/cli";
import { openSqlite } from "../../sqlite/open";
import { sql } from "../helpers/postgres";
import { DEMO } from "../helpers/sandbox";
import { collected, donate, donationBody, tokenize, useStack, type Stack } from "./support";
import { startReceiver, webhooksEnv, type Receiver } from "./webhooks-receiver";

const SECRET = "whsec-operations-0123456789abcdef";
const METRICS_TOKEN = "metrics-token-for-webhooks-0123";

/** Moves every outbox row's creation back, as if its event were made `ms` earlier. */
async function age(ctx: Stack, ms: number): Promise<void> {
  const statement = `UPDATE webhook_outbox SET created_at = created_at - ${ms}`;
  if (ctx.proxy.databaseUrl) {
    await sql(ctx.proxy.databaseUrl, statement);
    return;
  }
  // The proxy runs in this process: wait for its open transaction without blocking it.
  const db = openSqlite(`${ctx.proxy.dataDir}/givekit.db`, { fileMustExist: true });
  db.pragma("busy_timeout = 0");
  try {
    for (;;) {
      try {
        db.exec(statement);
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== "SQLITE_BUSY") throw error;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
  } finally {
    db.close();
  }
}

async function metric(ctx: Stack, name: string): Promise<string[]> {
  const res = await fetch(`${ctx.proxy.url}/metrics`, {
    headers: { Authorization: `Bearer ${METRICS_TOKEN}` },
  });
  return (await res.text()).split("\n").filter((line) => line.startsWith(name));
}

describe.each(["sqlite", "postgres"] as const)("webhooks for the operator, on %s", (store) => {
  let receiver: Receiver;
  const hooks = { value: "" };
  const proxyEnv: Record<string, string> = {
    GIVEKIT_WEBHOOK_BACKOFF_MS: "200",
    GIVEKIT_METRICS_TOKEN: METRICS_TOKEN,
  };
  beforeAll(async () => {
    receiver = await startReceiver(() => 500);
    // A receiver's own token in the query string: never printed.
    hooks.value = webhooksEnv({
      url: `${receiver.url}?token=receiver-query-token`,
      secret: SECRET,
      events: ["donation.succeeded"],
    });
    proxyEnv.GIVEKIT_WEBHOOKS = hooks.value;
  });
  afterAll(() => receiver.close());
  const ctx = useStack({ proxy: { env: proxyEnv, store } });
  const env = (): NodeJS.ProcessEnv => ({
    UPSTREAM_BASE_URL: ctx.sandbox.url,
    UPSTREAM_PRIVATE_TOKEN: DEMO.hope.privateToken,
    UPSTREAM_PUBLIC_TOKEN: DEMO.hope.publicToken,
    GIVEKIT_DATA_DIR: ctx.proxy.dataDir,
    GIVEKIT_WEBHOOKS: hooks.value,
    ...(ctx.proxy.databaseUrl
      ? { DATABASE_URL: ctx.proxy.databaseUrl, GIVEKIT_SIGNING_SECRET: "x".repeat(32) }
      : {}),
  });

  it("lists a failing event, counts its tries, warns at doctor after an hour; retry and replay send it again", async () => {
    // Before the event, even once it is aged an hour below.
    const before = new Date(Date.now() - 2 * 3600 * 1000).toISOString();
    receiver.answer = () => 500;
    receiver.deliveries.length = 0;
    const reply = await donate(ctx.api, donationBody(await tokenize(ctx.api), { amount: "31.00" }));
    expect(reply.status).toBe(200);
    expect(await collected(ctx.sandbox)).toHaveLength(1);
    await receiver.until(() => receiver.deliveries.length >= 2);

    const listed = await givekit(["webhooks", "list", "--json"], env());
    expect(listed.code).toBe(0);
    const [row] = jsonLines(listed.out);
    expect(row).toMatchObject({
      type: "donation.succeeded",
      endpoint: receiver.url,
      state: "pending",
      last_status: 500,
      last_error: "answered 500",
    });
    expect(row!.tries).toBeGreaterThanOrEqual(1);
    const table = await givekit(["webhooks", "list"], env());
    for (const out of [listed.out, table.out]) {
      expect(out).not.toContain(SECRET);
      expect(out).not.toContain("receiver-query-token");
    }
    expect(table.out).toContain(row!.event_id as string);
    // The proxy's log names the failing endpoint without its query string.
    const failures = ctx.proxy.logs.filter((line) => line.includes("webhook delivery failed"));
    expect(failures.length).toBeGreaterThan(0);
    expect(failures[0]).toContain(`"endpoint":"${receiver.url}"`);
    expect(ctx.proxy.logs.join("\n")).not.toContain("receiver-query-token");

    await expect
      .poll(async () => (await metric(ctx, 'givekit_webhook_deliveries_total{outcome="failed"}')).length)
      .toBe(1);
    const [failedTries] = await metric(ctx, 'givekit_webhook_deliveries_total{outcome="failed"}');
    expect(Number(failedTries!.split(" ")[1])).toBeGreaterThanOrEqual(2);
    const [oldest] = await metric(ctx, "givekit_webhook_oldest_undelivered_seconds ");
    expect(Number(oldest!.split(" ")[1])).toBeGreaterThan(0);

    const young = await givekit(["doctor"], env());
    expect(young.out).toMatch(/^✓ webhooks: 1 endpoint\(s\); 0 delivered, 1 waiting, the oldest since /m);
    await age(ctx, 61 * 60 * 1000);
    const old = await givekit(["doctor"], env());
    expect(old.code).toBe(1);
    expect(old.out).toMatch(
      new RegExp(
        `^✗ webhooks: GIVEKIT_WEBHOOKS: ${receiver.url.replaceAll(".", "\\.")} has failed since \\S+\\. Fix: .*givekit webhooks retry`,
        "m",
      ),
    );
    expect(old.out).not.toContain("receiver-query-token");

    // The receiver is mended: retry makes the event due at once, however long its backoff.
    receiver.answer = () => 200;
    const retried = await givekit(["webhooks", "retry"], env());
    expect(retried).toMatchObject({
      code: 0,
      out: expect.stringMatching(/^1 event\(s\) not yet delivered are due now/),
    });
    await receiver.until(() => receiver.accepted().length === 1);
    await expect
      .poll(
        async () =>
          jsonLines((await givekit(["webhooks", "list", "--state", "delivered", "--json"], env())).out)
            .length,
      )
      .toBe(1);
    expect((await givekit(["doctor"], env())).out).toMatch(
      /^✓ webhooks: 1 endpoint\(s\); 1 delivered, none waiting$/m,
    );

    // Replay sends it once more, with the same id: a receiver can tell it had it.
    const later = await givekit(["webhooks", "replay", "--since", new Date().toISOString()], env());
    expect(later.out).toMatch(/^0 event\(s\) are due again/);
    const replayed = await givekit(["webhooks", "replay", "--since", before], env());
    expect(replayed).toMatchObject({ code: 0, out: expect.stringMatching(/^1 event\(s\) are due again/) });
    await receiver.until(() => receiver.accepted().length === 2);
    const [first, again] = receiver.accepted();
    expect(again!.id).toBe(first!.id);
  });

  it("refuses bad flags with the usage, exit 2", async () => {
    const badState = await givekit(["webhooks", "list", "--state", "lost"], env());
    expect(badState.code).toBe(2);
    expect(badState.err).toContain("--state must be one of pending, delivered, dead");
    const noSince = await givekit(["webhooks", "replay"], env());
    expect(noSince.code).toBe(2);
    expect(noSince.err).toContain("--since is required");
    const badSince = await givekit(["webhooks", "retry", "--since", "yesterday"], env());
    expect(badSince.code).toBe(2);
  });
});
