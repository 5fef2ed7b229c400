/**
 * One webhook claim on PostgreSQL over a backlog (issue 43): BENCH_WEBHOOK_BACKLOG events
 * (100,000) pending in the outbox, after as many already delivered (the outbox keeps them for
 * the retention), two per donation. Timed: BENCH_CLAIM_ROUNDS (30) claims of 16 events (the
 * delivery's batch), each followed by their delivery, as the proxy's poll does; the median and
 * the slowest claim. Then again once `givekit webhooks retry` has made the whole backlog due at
 * one instant (requeueWebhooks).
 *
 * BENCH_DATABASE_URL: a server whose user may create databases; else an embedded one.
 * `npx tsx bench/scale-outbox-claim.ts` runs it alone; `benchOutboxClaim()` is what the bench's
 * scale part calls.
 */
import { fileURLToPath } from "node:url";
import { Client } from "pg";
import { openPostgresStore } from "../proxy/store/postgres";
import { startEmbeddedPostgres } from "../test/helpers/postgres-global";

const BACKLOG = Number(process.env.BENCH_WEBHOOK_BACKLOG || 100_000);
const ROUNDS = Number(process.env.BENCH_CLAIM_ROUNDS || 30);
const BATCH = 16;
const median = (sorted: number[]) => Math.round(sorted[Math.floor(sorted.length / 2)]! * 100) / 100;
const max = (sorted: number[]) => Math.round(sorted.at(-1)! * 100) / 100;
const ENDPOINT = "https://crm.example.org/givekit";

export interface ClaimFigures {
  backlog: number;
  medianMs: number;
  maxMs: number;
  /** The same once the backlog was requeued (every row due at one instant). */
  requeuedMedianMs: number;
  requeuedMaxMs: number;
  /** No claim held two events of one donation (the first not yet delivered), and none twice. */
  inOrder: boolean;
}

async function withDatabase<T>(run: (url: string) => Promise<T>): Promise<T> {
  const server = process.env.BENCH_DATABASE_URL
    ? { url: process.env.BENCH_DATABASE_URL, stop: async () => {} }
    : await startEmbeddedPostgres();
  const name = `givekit_claim_${process.pid}`;
  const admin = new Client({ connectionString: server.url });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${name}"`);
    const url = new URL(server.url);
    url.pathname = `/${name}`;
    return await run(url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).catch(() => undefined);
    await admin.end();
    await server.stop();
  }
}

/** Fills the outbox: `BACKLOG` delivered events, then `BACKLOG` pending ones, two per donation. */
async function fill(url: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const since = Date.now() - 3600_000;
    await client.query(
      `INSERT INTO webhook_outbox (event_id, event_type, endpoint, order_key, body, created_at, next_at, state, done_at)
       SELECT 'evt_' || i, 'donation.succeeded', $1, 'gk_' || (i / 2), '{"id":"evt_' || i || '"}', $2::bigint + i,
         $2::bigint + i, CASE WHEN i < $3 THEN 'delivered' ELSE 'pending' END,
         CASE WHEN i < $3 THEN $2::bigint + i ELSE NULL END
       FROM generate_series(0, $3::int * 2 - 1) AS i`,
      [ENDPOINT, since, BACKLOG],
    );
    await client.query("ANALYZE webhook_outbox");
  } finally {
    await client.end();
  }
}

/** Times the claims over the backlog; its figures. */
export async function benchOutboxClaim(): Promise<ClaimFigures> {
  return withDatabase(async (url) => {
    const store = await openPostgresStore({
      url,
      retentionH: 24,
      leaseMs: 20_000,
      poolMax: 2,
      connectTimeoutMs: 5000,
    });
    try {
      await fill(url);
      const claimed = new Set<string>();
      let inOrder = true;
      const rounds = async (): Promise<number[]> => {
        const times: number[] = [];
        for (let round = 0; round < ROUNDS; round++) {
          const started = performance.now();
          const rows = await store.claimWebhooks("bench", 30_000, BATCH);
          times.push(performance.now() - started);
          // Two events of one donation in one claim: the second handed over before the first was delivered.
          if (new Set(rows.map((row) => row.order_key)).size !== rows.length || rows.length !== BATCH)
            inOrder = false;
          for (const row of rows) {
            if (claimed.has(row.event_id)) inOrder = false;
            claimed.add(row.event_id);
            await store.webhookDelivered(row.seq, "bench", 200);
          }
        }
        return times.toSorted((a, b) => a - b);
      };
      const due = await rounds();
      await store.requeueWebhooks({}, "retry");
      const requeued = await rounds();
      return {
        backlog: BACKLOG,
        medianMs: median(due),
        maxMs: max(due),
        requeuedMedianMs: median(requeued),
        requeuedMaxMs: max(requeued),
        inOrder,
      };
    } finally {
      await store.close();
    }
  });
}

/** One line of the bench's output. */
export const describeClaim = (figures: ClaimFigures): string =>
  `PostgreSQL outbox, ${figures.backlog.toLocaleString("en-US")} events waiting: one claim of ${BATCH} ` +
  `median ${figures.medianMs} ms (slowest ${figures.maxMs} ms); after a requeue, all due at once, ` +
  `median ${figures.requeuedMedianMs} ms (slowest ${figures.requeuedMaxMs} ms); in order per donation, none twice: ${figures.inOrder ? "yes" : "NO"}`;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const figures = await benchOutboxClaim();
  // oxlint-disable-next-line no-console -- a bench prints its figures.
  console.log(describeClaim(figures));
}
