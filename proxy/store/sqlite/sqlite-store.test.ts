// What only the SQLite store has: its data directory and lock, the generated signing secret,
// recovery at open, group commit, and the migration of stores from before schema versions.
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqlite } from "../../../sqlite/open";
import { afterEach, describe, expect, it } from "vitest";
import { SchemaTooNewError } from "../schema-version";
import { openSqliteStore } from "./";
import { DB_FILE, dbFileIn, SECRET_FILE, DataDirInUseError, resolveSigningSecret } from "./data-dir";
import { sqliteConsents } from "./consents";
import { createGroupCommit, LAZY_FLUSH_MS } from "./group-commit";
import { migrateSqlite, SQLITE_SCHEMA_VERSION } from "./schema";
import type { Claim, Store } from "../types";

const dirs: string[] = [];
const stores: Store[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "givekit-store-"));
  dirs.push(dir);
  return dir;
}

function open(dataDir = freshDir()): Store {
  const store = openSqliteStore({ dataDir, retentionH: 24, leaseMs: 20_000 });
  stores.push(store);
  return store;
}

const request = {
  scope: "origin:https://shelter.example",
  key: "key-1",
  endpoint: "donations",
  fingerprint: "fp-a",
};

const attempt = (reference: string) => ({
  reference,
  idempotency_key: request.key,
  client_scope: request.scope,
  client_ip: "203.0.113.5",
  fingerprint: "fp-a",
  shortcode: "71777",
  keyword: "HOPE",
  amount: "25.75",
  fee_amount: "0.75",
  recurring_frequency: null,
  peer_fundraiser_id: null,
  peer_fundraiser_team_id: null,
  utm: null,
});

async function claimOf(store: Store, key = request.key): Promise<Claim> {
  const result = await store.claimKey({ ...request, key });
  if (result.kind !== "started") throw new Error(result.kind);
  return result.claim;
}

const readOnly = (dir: string) => openSqlite(join(dir, DB_FILE), { readonly: true });
function count(dir: string, table: string): number {
  const reader = readOnly(dir);
  try {
    return (reader.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
  } finally {
    reader.close();
  }
}

describe("the data directory", () => {
  it("holds one open store: a second is refused until the first is closed", async () => {
    const dir = freshDir();
    const first = openSqliteStore({ dataDir: dir, retentionH: 24, leaseMs: 20_000 });
    await first.claimKey(request);
    let refused: unknown;
    try {
      openSqliteStore({ dataDir: dir, retentionH: 24, leaseMs: 20_000 });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(DataDirInUseError);
    expect((refused as Error).message).toContain(dir);
    expect((refused as Error).message).toContain("GIVEKIT_DATA_DIR");
    expect((refused as Error).message).toContain("DATABASE_URL");
    // The refused opener did not run anything: the first store's key is still in flight.
    expect(await first.claimKey(request)).toEqual({ kind: "in_flight" });
    await first.close();
  });

  it("at open, attempts a crashed run left sending become unknown and replay; unsent claims are forgotten", async () => {
    const dir = freshDir();
    const crashed = openSqliteStore({ dataDir: dir, retentionH: 24, leaseMs: 20_000 });
    await crashed.startAttempt(await claimOf(crashed), attempt("gk_lost"));
    await claimOf(crashed, "never-sent");
    await crashed.close();

    const store = open(dir);
    expect((await store.attempt("gk_lost"))?.state).toBe("unknown");
    expect(await store.claimKey(request)).toMatchObject({
      kind: "replay",
      attempt: { reference: "gk_lost", state: "unknown" },
    });
    // A key that never got as far as an attempt never reached the upstream: it may start afresh.
    expect((await store.claimKey({ ...request, key: "never-sent" })).kind).toBe("started");
  });
});

describe("the signing secret", () => {
  it("is the configured one when set", () => {
    expect(resolveSigningSecret(freshDir(), "s".repeat(40))).toBe("s".repeat(40));
  });

  it("is generated once, kept private in the data dir, and reused", () => {
    const dir = freshDir();
    const first = resolveSigningSecret(dir, null);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(resolveSigningSecret(dir, null)).toBe(first);
    expect(readFileSync(join(dir, SECRET_FILE), "utf8")).toBe(first);
    expect(statSync(join(dir, SECRET_FILE)).mode & 0o077).toBe(0);
  });
});

describe("a data directory from before the store was renamed (givekit-journal.db, journal-secret)", () => {
  it("is taken over: its files get today's names, its keys and its secret kept", async () => {
    const dir = freshDir();
    const secret = resolveSigningSecret(dir, null);
    const before = open(dir);
    await before.startAttempt(await claimOf(before), attempt("att_old"));
    await before.close();
    stores.pop();
    // As an older version left it.
    renameSync(join(dir, DB_FILE), join(dir, "givekit-journal.db"));
    renameSync(join(dir, SECRET_FILE), join(dir, "journal-secret"));
    expect(dbFileIn(dir)).toBe(join(dir, "givekit-journal.db"));

    const after = open(dir);
    expect(existsSync(join(dir, "givekit-journal.db"))).toBe(false);
    expect(existsSync(join(dir, "givekit-journal.lock"))).toBe(false);
    expect(dbFileIn(dir)).toBe(join(dir, DB_FILE));
    expect((await after.attempts()).map((row) => row.reference)).toEqual(["att_old"]);
    expect(resolveSigningSecret(dir, null)).toBe(secret);
  });

  it("is refused while a proxy of the older version holds its old lock", () => {
    const dir = freshDir();
    open(dir);
    void stores.pop()!.close();
    renameSync(join(dir, DB_FILE), join(dir, "givekit-journal.db"));
    const older = openSqlite(join(dir, "givekit-journal.lock"), { timeout: 0 });
    older.pragma("journal_mode = MEMORY");
    older.exec("BEGIN EXCLUSIVE");
    try {
      expect(() => open(dir)).toThrow(DataDirInUseError);
      expect(existsSync(join(dir, "givekit-journal.db"))).toBe(true);
    } finally {
      older.close();
    }
  });
});

describe("group commit", () => {
  it("writes of one turn are visible at once on the writer's connection, and on disk once durable() resolves", async () => {
    const dir = freshDir();
    const path = join(dir, DB_FILE);
    const db = openSqlite(path);
    db.pragma("journal_mode = WAL");
    db.exec("CREATE TABLE t (n INTEGER)");
    const commits = createGroupCommit(db, path);
    const reader = readOnly(dir);
    try {
      commits.write(() => db.prepare("INSERT INTO t VALUES (1)").run());
      commits.write(() => db.prepare("INSERT INTO t VALUES (2)").run());
      expect(db.prepare("SELECT COUNT(*) AS n FROM t").get()).toEqual({ n: 2 });
      expect(reader.prepare("SELECT COUNT(*) AS n FROM t").get()).toEqual({ n: 0 });
      await commits.durable();
      expect(reader.prepare("SELECT COUNT(*) AS n FROM t").get()).toEqual({ n: 2 });
    } finally {
      reader.close();
      commits.close();
      db.close();
    }
  });

  it("a consent outcome needs no fsync of its own: it is written within LAZY_FLUSH_MS", async () => {
    const dir = freshDir();
    const store = open(dir);
    const id = await store.recordConsent({
      mobilenumber: "5550101234",
      list: "Hope Alerts",
      keyword: null,
      shortcode: null,
      consent_text_sha256: "ab".repeat(32),
      consent_text: "Yes, text me Hope Shelter alerts.",
      ip: "203.0.113.5",
      user_agent: null,
      page_url: null,
    });
    await store.finishConsent(id, "subscribed");
    const outcome = () => {
      const reader = readOnly(dir);
      try {
        return (reader.prepare("SELECT outcome FROM consent_records").get() as { outcome: string }).outcome;
      } finally {
        reader.close();
      }
    };
    expect(outcome()).toBe("pending");
    await new Promise((resolve) => setTimeout(resolve, LAZY_FLUSH_MS + 100));
    await expect.poll(outcome).toBe("subscribed");
  });

  it("close() writes what is still waiting", async () => {
    const dir = freshDir();
    const store = openSqliteStore({ dataDir: dir, retentionH: 24, leaseMs: 20_000 });
    void store.claimKey(request);
    await store.close();
    expect(count(dir, "idempotency_keys")).toBe(1);
  });
});

describe("consent texts", () => {
  const consent = {
    mobilenumber: "5550101234",
    list: "Hope Alerts",
    keyword: null,
    shortcode: null,
    consent_text_sha256: "ab".repeat(32),
    consent_text: "Yes, text me Hope Shelter alerts.",
    ip: "203.0.113.5",
    user_agent: null,
    page_url: null,
  };

  it("a text is written once it is on disk, and written again by the next record if its transaction was rolled back", () => {
    const db = openSqlite(":memory:");
    try {
      migrateSqlite(db);
      const consents = sqliteConsents(db);
      db.exec("BEGIN");
      consents.insert(consent, Date.now());
      db.exec("ROLLBACK");
      consents.insert(consent, Date.now());
      consents.textStored(consent.consent_text_sha256);
      consents.insert(consent, Date.now());
      expect(consents.all().map((record) => record.consent_text)).toEqual([
        consent.consent_text,
        consent.consent_text,
      ]);
      expect(db.prepare("SELECT COUNT(*) AS n FROM consent_texts").get()).toEqual({ n: 1 });
    } finally {
      db.close();
    }
  });

  it("every record of a reopened store has its text, the same text given again", async () => {
    const dir = freshDir();
    const first = openSqliteStore({ dataDir: dir, retentionH: 24, leaseMs: 20_000 });
    await first.recordConsent(consent);
    await first.close();
    const store = open(dir);
    await store.recordConsent(consent);
    await store.recordConsent({
      ...consent,
      consent_text_sha256: "cd".repeat(32),
      consent_text: "Other words.",
    });
    await store.recordConsent(consent);
    expect((await store.consents()).map((record) => record.consent_text)).toEqual([
      consent.consent_text,
      consent.consent_text,
      "Other words.",
      consent.consent_text,
    ]);
  });
});

describe("the schema", () => {
  it("a store from before schema versions is migrated; its finished keys replay from their attempts", async () => {
    const dir = freshDir();
    const old = openSqlite(join(dir, DB_FILE));
    old.exec(`
      CREATE TABLE idempotency_keys (client_scope TEXT NOT NULL, idempotency_key TEXT NOT NULL, endpoint TEXT NOT NULL,
        fingerprint TEXT NOT NULL, state TEXT NOT NULL CHECK (state IN ('in_flight', 'done')), reference TEXT, status INTEGER,
        body TEXT, created_at INTEGER NOT NULL, completed_at INTEGER, PRIMARY KEY (client_scope, idempotency_key));
      CREATE TABLE donation_attempts (reference TEXT PRIMARY KEY, idempotency_key TEXT NOT NULL, client_scope TEXT NOT NULL,
        client_ip TEXT NOT NULL, fingerprint TEXT NOT NULL, shortcode TEXT NOT NULL, keyword TEXT NOT NULL, amount TEXT NOT NULL,
        fee_amount TEXT NOT NULL, recurring_frequency TEXT, peer_fundraiser_id TEXT, peer_fundraiser_team_id TEXT,
        state TEXT NOT NULL, upstream_status INTEGER, transaction_id TEXT, created_at TEXT NOT NULL, updated_at TEXT NOT NULL);
      CREATE TABLE consent_records (id INTEGER PRIMARY KEY, mobilenumber TEXT NOT NULL, list TEXT, keyword TEXT, shortcode TEXT,
        consent_text_sha256 TEXT NOT NULL, consented_at TEXT NOT NULL, ip TEXT NOT NULL, user_agent TEXT, page_url TEXT,
        outcome TEXT NOT NULL);
      INSERT INTO consent_records VALUES (1, '5550101234', 'Hope Alerts', NULL, NULL, '${"ab".repeat(32)}',
        '2026-11-20T10:00:00.000Z', '203.0.113.5', NULL, NULL, 'subscribed');
    `);
    old
      .prepare(
        "INSERT INTO idempotency_keys VALUES (?, ?, 'donations', 'fp-a', 'done', 'gk_old', 200, '{\"donation\":{}}', ?, ?)",
      )
      .run(request.scope, request.key, Date.now(), Date.now());
    old
      .prepare(
        `INSERT INTO donation_attempts VALUES ('gk_old', ?, ?, '203.0.113.5', 'fp-a', '71777', 'HOPE', '25.00', '0.00',
          NULL, NULL, NULL, 'succeeded', 200, '100042', '2026-11-20T10:00:00.000Z', '2026-11-20T10:00:00.000Z')`,
      )
      .run(request.key, request.scope);
    old.close();

    const store = open(dir);
    expect(await store.claimKey(request)).toMatchObject({
      kind: "replay",
      attempt: { reference: "gk_old", state: "succeeded", transaction_id: "100042" },
    });
    // A consent kept before texts were: still exported, its text unknown rather than invented.
    expect(await store.consents()).toMatchObject([
      { id: 1, consent_text_sha256: "ab".repeat(32), consent_text: null, outcome: "subscribed" },
    ]);
    const reader = readOnly(dir);
    try {
      expect(reader.pragma("user_version", { simple: true })).toBe(SQLITE_SCHEMA_VERSION);
      const columns = (reader.prepare("PRAGMA table_info(idempotency_keys)").all() as { name: string }[]).map(
        (column) => column.name,
      );
      expect(columns).not.toContain("body");
    } finally {
      reader.close();
    }
  });

  it("a store newer than this code is refused", () => {
    const dir = freshDir();
    const newer = openSqlite(join(dir, DB_FILE));
    newer.pragma(`user_version = ${SQLITE_SCHEMA_VERSION + 1}`);
    newer.close();
    expect(() => openSqliteStore({ dataDir: dir, retentionH: 24, leaseMs: 20_000 })).toThrow(
      SchemaTooNewError,
    );
    // The refused open let the directory go: a second try meets the schema again, not the lock.
    expect(() => openSqliteStore({ dataDir: dir, retentionH: 24, leaseMs: 20_000 })).toThrow(
      SchemaTooNewError,
    );
  });
});
