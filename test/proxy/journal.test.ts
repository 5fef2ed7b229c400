import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import {
  JOURNAL_FILE,
  JOURNAL_SECRET_FILE,
  JournalInUseError,
  LAZY_FLUSH_MS,
  openJournal,
  resolveJournalSecret,
  type Journal,
} from "../../proxy/journal";

const dirs: string[] = [];
const journals: Journal[] = [];
afterEach(() => {
  for (const journal of journals.splice(0)) journal.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "givekit-journal-"));
  dirs.push(dir);
  return dir;
}

function open(dataDir = freshDir(), now?: () => number): Journal {
  const journal = openJournal({ dataDir, retentionH: 24, now });
  journals.push(journal);
  return journal;
}

const claim = {
  scope: "origin:https://shelter.example",
  key: "key-1",
  endpoint: "donations",
  fingerprint: "fp-a",
};

const attempt = (reference: string, key = "key-1") => ({
  reference,
  idempotency_key: key,
  client_scope: claim.scope,
  client_ip: "203.0.113.5",
  fingerprint: "fp-a",
  shortcode: "71777",
  keyword: "HOPE",
  amount: "25.75",
  fee_amount: "0.75",
  recurring_frequency: null,
  peer_fundraiser_id: "101",
  peer_fundraiser_team_id: null,
});

describe("idempotency records", () => {
  it("a new key starts; the same key and body while it runs is in flight", () => {
    const journal = open();
    expect(journal.begin(claim)).toEqual({ kind: "started" });
    expect(journal.begin(claim)).toEqual({ kind: "in_flight" });
  });

  it("the same key with another body is a mismatch, in flight or done", () => {
    const journal = open();
    journal.begin(claim);
    expect(journal.begin({ ...claim, fingerprint: "fp-b" })).toEqual({ kind: "mismatch" });
    journal.complete(claim.scope, claim.key, { status: 200, body: "{}" }, null);
    expect(journal.begin({ ...claim, fingerprint: "fp-b" })).toEqual({ kind: "mismatch" });
  });

  it("a finished key replays the stored status and body", () => {
    const journal = open();
    journal.begin(claim);
    journal.complete(claim.scope, claim.key, { status: 402, body: '{"code":"card_declined"}' }, "gk_1");
    expect(journal.begin(claim)).toEqual({
      kind: "replay",
      answer: { status: 402, body: '{"code":"card_declined"}' },
    });
  });

  it("keys are scoped by client: the same key of another client is a new request", () => {
    const journal = open();
    journal.begin(claim);
    expect(journal.begin({ ...claim, scope: "origin:https://other.example" })).toEqual({ kind: "started" });
  });

  it("a released key may start again", () => {
    const journal = open();
    journal.begin(claim);
    journal.release(claim.scope, claim.key);
    expect(journal.begin(claim)).toEqual({ kind: "started" });
  });

  it("records are kept for the retention window (24 h) and forgotten after it", () => {
    let now = Date.parse("2026-11-22T10:00:00Z");
    const journal = open(freshDir(), () => now);
    journal.begin(claim);
    journal.complete(claim.scope, claim.key, { status: 200, body: "{}" }, null);
    now += 23.9 * 3600 * 1000;
    expect(journal.purgeExpired()).toBe(0);
    expect(journal.begin(claim).kind).toBe("replay");
    now += 0.2 * 3600 * 1000;
    expect(journal.begin(claim).kind).toBe("started");
    journal.complete(claim.scope, claim.key, { status: 200, body: "{}" }, null);
    now += 25 * 3600 * 1000;
    expect(journal.purgeExpired()).toBe(1);
  });

  it("survive a restart (they are on disk)", () => {
    const dir = freshDir();
    const first = openJournal({ dataDir: dir, retentionH: 24 });
    first.begin(claim);
    first.complete(claim.scope, claim.key, { status: 200, body: '{"ok":1}' }, null);
    first.close();
    expect(open(dir).begin(claim)).toEqual({ kind: "replay", answer: { status: 200, body: '{"ok":1}' } });
  });
});

describe("the data directory", () => {
  it("holds one open journal: a second is refused until the first is closed", () => {
    const dir = freshDir();
    const first = openJournal({ dataDir: dir, retentionH: 24 });
    first.begin(claim);
    let refused: unknown;
    try {
      openJournal({ dataDir: dir, retentionH: 24 });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(JournalInUseError);
    expect((refused as Error).message).toContain(dir);
    expect((refused as Error).message).toContain("GIVEKIT_DATA_DIR");
    // The refused opener did not run anything: the first journal's key is still in flight.
    expect(first.begin(claim)).toEqual({ kind: "in_flight" });
    first.close();

    expect(open(dir).begin(claim)).toEqual({ kind: "in_flight" });
  });
});

describe("donation attempts", () => {
  it("are journaled as sending, then with their outcome", () => {
    const journal = open();
    journal.recordAttempt(attempt("gk_a"));
    expect(journal.attempt("gk_a")).toMatchObject({
      state: "sending",
      amount: "25.75",
      transaction_id: null,
    });
    journal.finishAttempt("gk_a", "succeeded", 200, "100001");
    expect(journal.attempt("gk_a")).toMatchObject({
      state: "succeeded",
      upstream_status: 200,
      transaction_id: "100001",
    });
  });

  it("left sending by a crashed run become unknown, and their keys replay 202 Pending", () => {
    const dir = freshDir();
    const crashed = openJournal({ dataDir: dir, retentionH: 24 });
    crashed.begin(claim);
    crashed.recordAttempt(attempt("gk_lost"));
    crashed.begin({ ...claim, key: "never-sent" });
    crashed.close();

    const journal = open(dir);
    expect(journal.recoverInterrupted((reference) => JSON.stringify({ pending: reference }))).toBe(1);
    expect(journal.attempt("gk_lost")?.state).toBe("unknown");
    expect(journal.begin(claim)).toEqual({
      kind: "replay",
      answer: { status: 202, body: '{"pending":"gk_lost"}' },
    });
    // A key that never got as far as an attempt never reached the upstream: it may start afresh.
    expect(journal.begin({ ...claim, key: "never-sent" })).toEqual({ kind: "started" });
  });
});

describe("consent records", () => {
  it("keep the number, target, text hash, time, IP, user agent, page URL and outcome", () => {
    const journal = open();
    const id = journal.recordConsent({
      mobilenumber: "5550101234",
      list: "Hope Alerts",
      keyword: null,
      shortcode: null,
      consent_text_sha256: "ab".repeat(32),
      ip: "203.0.113.5",
      user_agent: "Mozilla/5.0",
      page_url: "https://shelter.example/donate",
    });
    journal.finishConsent(id, "subscribed");
    const [record] = journal.consents();
    expect(record).toMatchObject({
      mobilenumber: "5550101234",
      list: "Hope Alerts",
      consent_text_sha256: "ab".repeat(32),
      ip: "203.0.113.5",
      user_agent: "Mozilla/5.0",
      page_url: "https://shelter.example/donate",
      outcome: "subscribed",
    });
    expect(Date.parse(record!.consented_at)).not.toBeNaN();
  });
});

describe("the journal secret", () => {
  it("is the configured one when set", () => {
    expect(resolveJournalSecret(freshDir(), "s".repeat(40))).toBe("s".repeat(40));
  });

  it("is generated once, kept private in the data dir, and reused", () => {
    const dir = freshDir();
    const first = resolveJournalSecret(dir, null);
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(resolveJournalSecret(dir, null)).toBe(first);
    expect(readFileSync(join(dir, JOURNAL_SECRET_FILE), "utf8")).toBe(first);
    expect(statSync(join(dir, JOURNAL_SECRET_FILE)).mode & 0o077).toBe(0);
  });
});

const readOnly = (dir: string) => new Database(join(dir, JOURNAL_FILE), { readonly: true });

describe("group commit", () => {
  it("writes of one turn are visible at once on the journal's own connection, and on disk once durable() resolves", async () => {
    const dir = freshDir();
    const journal = open(dir);
    journal.begin(claim);
    journal.recordAttempt(attempt("gk_a"));
    // Atomic claims need this: the journal itself sees the claim before it is committed.
    expect(journal.begin(claim)).toEqual({ kind: "in_flight" });
    const reader = readOnly(dir);
    try {
      expect(reader.prepare("SELECT COUNT(*) AS n FROM donation_attempts").get()).toEqual({ n: 0 });
      await journal.durable();
      expect(reader.prepare("SELECT COUNT(*) AS n FROM donation_attempts").get()).toEqual({ n: 1 });
      expect(reader.prepare("SELECT COUNT(*) AS n FROM idempotency_keys").get()).toEqual({ n: 1 });
    } finally {
      reader.close();
    }
  });

  it("a consent outcome needs no fsync of its own: it is written within LAZY_FLUSH_MS, or at close", async () => {
    const dir = freshDir();
    const journal = open(dir);
    const id = journal.recordConsent({
      mobilenumber: "5550101234",
      list: "Hope Alerts",
      keyword: null,
      shortcode: null,
      consent_text_sha256: "ab".repeat(32),
      ip: "203.0.113.5",
      user_agent: null,
      page_url: null,
    });
    await journal.durable();
    journal.finishConsent(id, "subscribed");
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
    await journal.durable();
    expect(outcome()).toBe("subscribed");
  });

  it("close() writes what is still waiting", () => {
    const dir = freshDir();
    const journal = openJournal({ dataDir: dir, retentionH: 24 });
    journal.begin(claim);
    journal.close();
    const reader = readOnly(dir);
    try {
      expect(reader.prepare("SELECT COUNT(*) AS n FROM idempotency_keys").get()).toEqual({ n: 1 });
    } finally {
      reader.close();
    }
  });
});
