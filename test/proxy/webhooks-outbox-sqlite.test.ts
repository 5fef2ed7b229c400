import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sqliteOutbox } from "../../proxy/store/sqlite/outbox";
import { migrateSqlite } from "../../proxy/store/sqlite/schema";
import { openSqlite } from "../../sqlite/open";

function open() {
  const db = openSqlite(join(mkdtempSync(join(tmpdir(), "givekit-outbox-")), "store.db"));
  migrateSqlite(db);
  return sqliteOutbox(db);
}
const row = (eventId: string, orderKey: string, createdAt = 1000) => ({
  eventId,
  eventType: "donation.succeeded",
  endpoint: "https://crm.example.org/hook",
  orderKey,
  body: JSON.stringify({ id: eventId }),
  createdAt,
});

describe("the SQLite webhook outbox", () => {
  it("hands out a donation's events one at a time, in order, and each to one claimer", () => {
    const outbox = open();
    outbox.add([row("a1", "don-a"), row("a2", "don-a"), row("b1", "don-b")]);
    const first = outbox.claim("proxy-1", 30_000, 10, 2000);
    expect(first.map((r) => r.event_id)).toEqual(["a1", "b1"]);
    expect(outbox.claim("proxy-2", 30_000, 10, 2000)).toEqual([]);
    expect(outbox.delivered(first[0]!.seq, "proxy-1", 200, 2100)).toBe(true);
    expect(outbox.claim("proxy-2", 30_000, 10, 2200).map((r) => r.event_id)).toEqual(["a2"]);
  });

  it("keeps a failed event first in its donation's line until it is delivered or given up", () => {
    const outbox = open();
    outbox.add([row("a1", "don-a"), row("a2", "don-a")]);
    const [a1] = outbox.claim("p", 30_000, 10, 2000);
    outbox.failed(a1!.seq, "p", { status: 500, error: "answered 500", nextAt: 5000, giveUp: false }, 2000);
    expect(outbox.claim("p", 30_000, 10, 4000)).toEqual([]);
    const again = outbox.claim("p", 30_000, 10, 5000);
    expect(again.map((r) => [r.event_id, r.attempts])).toEqual([["a1", 2]]);
    outbox.failed(again[0]!.seq, "p", { status: null, error: "timed out", nextAt: 0, giveUp: true }, 5000);
    expect(outbox.claim("p", 30_000, 10, 6000).map((r) => r.event_id)).toEqual(["a2"]);
  });

  it("gives a killed proxy's claimed events to another once the lease runs out; the first cannot finish them", () => {
    const outbox = open();
    outbox.add([row("a1", "don-a", 1000)]);
    const [claimed] = outbox.claim("killed", 30_000, 10, 2000);
    expect(outbox.oldestPendingAt()).toBe(1000);
    expect(outbox.claim("other", 30_000, 10, 31_999)).toEqual([]);
    const [taken] = outbox.claim("other", 30_000, 10, 32_000);
    expect(taken!.event_id).toBe("a1");
    expect(outbox.delivered(claimed!.seq, "killed", 200, 32_001)).toBe(false);
    expect(outbox.delivered(taken!.seq, "other", 200, 32_001)).toBe(true);
    expect(outbox.oldestPendingAt()).toBeNull();
  });

  it("keeps an event once per endpoint even if written twice", () => {
    const outbox = open();
    outbox.add([row("a1", "don-a"), row("a1", "don-a")]);
    expect(outbox.claim("p", 30_000, 10, 2000)).toHaveLength(1);
  });
});
