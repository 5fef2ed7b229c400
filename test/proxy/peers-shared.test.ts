// Two proxies on one PostgreSQL read a campaign's fundraisers and teams from the upstream once
// per interval between them: one reads (under the store's lease) and keeps what it read in the
// store, the other takes it from there.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Store } from "../../proxy/store";
import { openPostgresStore } from "../../proxy/store/postgres";
import { openSqliteStore } from "../../proxy/store/sqlite";
import { peerFixture } from "../helpers/peer-fixture";
import { testDatabase } from "../helpers/postgres";
import { startProxy, type ProxyHandle } from "../helpers/proxy";
import { startSandbox, type SandboxHandle } from "../helpers/sandbox";
import { client, upstreamCalls } from "./support";

const PATH = "/v1/campaigns/71777/HOPE/peers";
const INTERVAL_S = 2;
const { fixture } = peerFixture({ fundraisers: 2000, teams: 20 });

/** How many peers a proxy finds for "ana": those shown and the rest it counts. */
async function total(proxy: ProxyHandle) {
  const { json } = await client(proxy.url).get(`${PATH}?q=ana`);
  return (json.peers as unknown[]).length + Number(json.more ?? 0);
}

describe("peers shared by two proxies on one PostgreSQL", () => {
  let sandbox: SandboxHandle;
  let first: ProxyHandle;
  let second: ProxyHandle;
  beforeAll(async () => {
    sandbox = await startSandbox({ fixture });
    const env = { GIVEKIT_PEERS_CACHE_S: String(INTERVAL_S) };
    first = await startProxy({ upstreamUrl: sandbox.url, store: "postgres", env });
    second = await startProxy({
      upstreamUrl: sandbox.url,
      env: {
        ...env,
        DATABASE_URL: first.databaseUrl!,
        GIVEKIT_SIGNING_SECRET: randomBytes(32).toString("hex"),
      },
    });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await sandbox?.close();
  });

  /** The fundraisers list read from the upstream so far, by both proxies. */
  const reads = () => upstreamCalls(sandbox, "/api/v2/fundraisers");

  it("the second proxy answers from the first one's read; after the interval one of them reads again, for both", async () => {
    const before = await total(first);
    expect(before).toBeGreaterThan(20);
    expect(await total(second)).toBe(before);
    expect(await reads()).toBe(1);

    // A hundred more walkers upstream (some named Ana): both proxies list them after the interval, read once.
    const bulk = await fetch(`${sandbox.url}/_sandbox/bulk`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ shortcode: "71777", keyword: "HOPE", fundraisers: 100 }),
    });
    expect(bulk.status).toBe(200);
    const added = (await bulk.json()) as { fundraisers: number };
    expect(added.fundraisers).toBe(100);
    await new Promise((resolve) => setTimeout(resolve, INTERVAL_S * 1000 + 100));
    // Searches on both start the background refresh; both settle on the new list.
    await expect
      .poll(
        async () => {
          const [a, b] = [await total(first), await total(second)];
          return a === b && a > before;
        },
        { timeout: 5000, interval: 100 },
      )
      .toBe(true);
    expect(await reads()).toBe(2);
  });
});

describe.each(["sqlite", "postgres"] as const)("the peer lists on %s", (kind) => {
  let store: Store;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "givekit-peer-lists-"));
    store =
      kind === "sqlite"
        ? openSqliteStore({ dataDir: dir, retentionH: 24, leaseMs: 1000 })
        : await openPostgresStore({
            url: await testDatabase(),
            retentionH: 24,
            leaseMs: 1000,
            poolMax: 2,
            connectTimeoutMs: 5000,
          });
  });
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("one owner at a time reads a campaign's lists; each kept read is a new version", async () => {
    expect(await store.peerSnapshotVersion("71777/HOPE")).toBeNull();
    expect(await store.leasePeerRead("71777/HOPE", "a", 60_000)).toBe(true);
    expect(await store.leasePeerRead("71777/HOPE", "b", 60_000)).toBe(false);
    // Another campaign's lease is its own; the holder may renew its own.
    expect(await store.leasePeerRead("71777/RUN", "b", 60_000)).toBe(true);
    expect(await store.leasePeerRead("71777/HOPE", "a", 60_000)).toBe(true);
    // A lease that ran out is anyone's.
    expect(await store.leasePeerRead("41444/MEALS", "a", -1)).toBe(true);
    expect(await store.leasePeerRead("41444/MEALS", "b", 60_000)).toBe(true);

    const body = new Uint8Array([1, 2, 3, 250]);
    expect(await store.savePeerSnapshot("71777/HOPE", 1000, body)).toBe(1);
    expect(await store.savePeerSnapshot("71777/HOPE", 2000, new Uint8Array([9]))).toBe(2);
    expect(await store.peerSnapshotVersion("71777/HOPE")).toEqual({ version: 2, readAt: 2000 });
    expect(await store.peerSnapshot("71777/HOPE")).toEqual({
      version: 2,
      readAt: 2000,
      body: new Uint8Array([9]),
    });
    expect(await store.peerSnapshot("71777/RUN")).toBeNull();
  });
});
