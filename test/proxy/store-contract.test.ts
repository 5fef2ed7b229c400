// The store contract: the SQLite and PostgreSQL adapters behave the same, test for test.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { openPostgresStore } from "../../proxy/store/postgres";
import { openSqliteStore } from "../../proxy/store/sqlite";
import { memoryCounters } from "../../proxy/store/counters";
import { ClaimLostError } from "../../proxy/store/errors";
import type { Claim, ClaimResult, FormStepCount, Store } from "../../proxy/store/types";
import { sql, testDatabase } from "../helpers/postgres";

const LEASE_MS = 20_000;
/** A disclosure as the opt-in form shows it (commas and quotes included, as real ones have). */
const CONSENT_SHOWN = `By tapping "Subscribe", you agree to get Hope Shelter alerts, 4 msgs/mo. Reply STOP to end.`;
const dirs: string[] = [];
const stores: Store[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
});
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

interface Adapter {
  name: string;
  /** A place for a store: opening it twice gives two stores on the same data. */
  place(): Promise<string>;
  open(place: string, now?: () => number): Promise<Store>;
}

let databaseUrl: string | undefined;
const adapters: Adapter[] = [
  {
    name: "sqlite",
    async place() {
      const dir = mkdtempSync(join(tmpdir(), "givekit-store-"));
      dirs.push(dir);
      return dir;
    },
    async open(dataDir, now) {
      return openSqliteStore({ dataDir, retentionH: 24, leaseMs: LEASE_MS, now });
    },
  },
  {
    name: "postgres",
    async place() {
      databaseUrl ??= await testDatabase();
      // One database for the file; each test starts from empty tables.
      await sql(databaseUrl, "SELECT 1");
      const probe = await openPostgresStore({
        url: databaseUrl,
        retentionH: 24,
        leaseMs: LEASE_MS,
        poolMax: 2,
        connectTimeoutMs: 2000,
      });
      await probe.close();
      await sql(
        databaseUrl,
        "TRUNCATE idempotency_keys, donation_attempts, consent_records, consent_texts, givekit_rate_limits, reconcile_leases, defence_modes, form_step_counts, ops_counts, dashboard_invites, saved_forms, progress_figures, progress_donors RESTART IDENTITY; UPDATE dashboard_generation SET generation = 1",
      );
      return databaseUrl;
    },
    async open(url, now) {
      return openPostgresStore({
        url,
        retentionH: 24,
        leaseMs: LEASE_MS,
        poolMax: 4,
        connectTimeoutMs: 2000,
        now,
      });
    },
  },
];

const request = {
  scope: "origin:https://shelter.example",
  key: "key-1",
  endpoint: "donations",
  fingerprint: "fp-a",
};

const attempt = (reference: string, key = "key-1") => ({
  reference,
  idempotency_key: key,
  client_scope: request.scope,
  client_ip: "203.0.113.5",
  fingerprint: "fp-a",
  shortcode: "71777",
  keyword: "HOPE",
  amount: "25.75",
  fee_amount: "0.75",
  recurring_frequency: null,
  peer_fundraiser_id: "101",
  peer_fundraiser_team_id: null,
  // The page's campaign tags, kept as given (the donations route cleans them first).
  utm: '{"utm_source":"newsletter","utm_campaign":"giving-tuesday"}',
});

const success = {
  state: "succeeded" as const,
  upstream_status: 200,
  transaction_id: "100001",
  message: "Thank you",
  problem_code: null,
  problem_field: null,
};

function started(result: ClaimResult): Claim {
  if (result.kind !== "started") throw new Error(`expected a claim, got ${result.kind}`);
  return result.claim;
}

/** An attempt left unknown (its proxy died mid-call), created at `now`. */
async function unknownAttempt(store: Store, reference: string, clock: { now: number }) {
  const claim = started(await store.claimKey({ ...request, key: reference }));
  await store.startAttempt(claim, attempt(reference, reference));
  clock.now += LEASE_MS + 1;
  await store.expireLeases();
}

/** One count of the form's steps, "shown reached" on a phone unless `more` says otherwise. */
const formCount = (hour: number, channel: string, more: Partial<FormStepCount> = {}): FormStepCount => ({
  campaign: "71777/HOPE",
  hour,
  step: "shown",
  reason: "reached",
  channel,
  device: "phone",
  count: 1,
  ...more,
});

const refs = (list: { reference: string }[]) => list.map((a) => a.reference);

/** Progress figures as a read saves them, of `donors` donors. */
const progressSave = (donors: number) => ({
  raised_cents: 1000,
  gifts: donors,
  donors,
  read_at: 1,
  full_at: 1,
  base_before: 0,
  base_cents: 1000,
  base_gifts: donors,
  base_donors: donors,
  base_anonymous: 0,
  wall: [],
  credits: { base: { fundraiser: {}, team: {} }, all: { fundraiser: {}, team: {} } },
});
/** One ops count (OpsCountStore). */
const op = (campaign: string, hour: number, kind: string, label: string, count = 1) => ({
  campaign,
  hour,
  kind,
  label,
  count,
});

/** A saved form's version as the dashboard saves it (SavedFormStore). */
const form = (amounts: string, author = "events desk") => ({
  name: "year-end",
  campaign: "71777/HOPE",
  design: JSON.stringify({ attributes: { amounts } }),
  author,
});

describe.each(adapters)("the $name store", (adapter) => {
  async function open(place?: string, now?: () => number): Promise<Store> {
    const store = await adapter.open(place ?? (await adapter.place()), now);
    stores.push(store);
    return store;
  }

  describe("idempotency keys (IdempotencyStore)", () => {
    it("a new key is claimed; the same key and body while it runs is in flight", async () => {
      const store = await open();
      expect((await store.claimKey(request)).kind).toBe("started");
      expect(await store.claimKey(request)).toEqual({ kind: "in_flight" });
    });

    it("the same key with another body is a mismatch, in flight or done", async () => {
      const store = await open();
      const claim = started(await store.claimKey(request));
      expect(await store.claimKey({ ...request, fingerprint: "fp-b" })).toEqual({ kind: "mismatch" });
      await store.startAttempt(claim, attempt("gk_a"));
      await store.finishAttempt("gk_a", success);
      expect(await store.claimKey({ ...request, fingerprint: "fp-b" })).toEqual({ kind: "mismatch" });
    });

    it("a finished key replays its attempt's state, never a stored body", async () => {
      const store = await open();
      const claim = started(await store.claimKey(request));
      await store.startAttempt(claim, attempt("gk_a"));
      await store.finishAttempt("gk_a", success);
      const replay = await store.claimKey(request);
      expect(replay).toMatchObject({
        kind: "replay",
        attempt: { reference: "gk_a", state: "succeeded", transaction_id: "100001", message: "Thank you" },
      });
    });

    it("keys are scoped by client: the same key of another client is a new request", async () => {
      const store = await open();
      await store.claimKey(request);
      expect((await store.claimKey({ ...request, scope: "origin:https://other.example" })).kind).toBe(
        "started",
      );
    });

    it("a released key may be claimed again; a release by a claim no longer held does nothing", async () => {
      const store = await open();
      const first = started(await store.claimKey(request));
      await store.releaseKey(first);
      const second = started(await store.claimKey(request));
      await store.releaseKey(first);
      expect(await store.claimKey(request)).toEqual({ kind: "in_flight" });
      await store.releaseKey(second);
      expect((await store.claimKey(request)).kind).toBe("started");
    });

    it("a key whose attempt was never sent is freed with it", async () => {
      const store = await open();
      const claim = started(await store.claimKey(request));
      await store.startAttempt(claim, attempt("gk_n"));
      await store.abandonAttempt(claim, "gk_n");
      expect((await store.attempt("gk_n"))?.state).toBe("not_sent");
      expect((await store.claimKey(request)).kind).toBe("started");
    });

    it("20 concurrent claims of one key on two stores: exactly one is started", async () => {
      const place = await adapter.place();
      const a = await open(place);
      // SQLite is one proxy per directory: there, the same store takes all twenty.
      const b = adapter.name === "postgres" ? await open(place) : a;
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).claimKey(request)),
      );
      expect(results.filter((result) => result.kind === "started")).toHaveLength(1);
      expect(results.filter((result) => result.kind === "in_flight")).toHaveLength(19);
    });

    describe("leases", () => {
      it("a claim whose proxy died before recording an attempt is free once its lease ends", async () => {
        let now = Date.parse("2026-11-22T10:00:00Z");
        const store = await open(undefined, () => now);
        const dead = started(await store.claimKey(request));
        now += LEASE_MS - 1;
        expect(await store.claimKey(request)).toEqual({ kind: "in_flight" });
        now += 2;
        const next = started(await store.claimKey(request));
        expect(next.token).not.toBe(dead.token);
        // The dead claim cannot record an attempt any more: it would send a second time.
        await expect(store.startAttempt(dead, attempt("gk_late"))).rejects.toBeInstanceOf(ClaimLostError);
        expect(await store.attempt("gk_late")).toBeUndefined();
      });

      it("an attempt whose proxy died becomes unknown once its lease ends, and its key replays it", async () => {
        let now = Date.parse("2026-11-22T10:00:00Z");
        const store = await open(undefined, () => now);
        const claim = started(await store.claimKey(request));
        await store.startAttempt(claim, attempt("gk_lost"));
        now += LEASE_MS + 1;
        expect(await store.claimKey(request)).toMatchObject({
          kind: "replay",
          attempt: { reference: "gk_lost", state: "unknown" },
        });
        expect((await store.attempt("gk_lost"))?.state).toBe("unknown");
      });

      it("the sweep finds them too: unknown attempts, forgotten unsent claims, live claims untouched", async () => {
        let now = Date.parse("2026-11-22T10:00:00Z");
        const store = await open(undefined, () => now);
        const lost = started(await store.claimKey(request));
        await store.startAttempt(lost, attempt("gk_lost"));
        await store.claimKey({ ...request, key: "never-sent" });
        now += LEASE_MS + 1;
        const live = started(await store.claimKey({ ...request, key: "live" }));
        expect(await store.expireLeases()).toBe(1);
        expect((await store.attempt("gk_lost"))?.state).toBe("unknown");
        expect((await store.claimKey({ ...request, key: "never-sent" })).kind).toBe("started");
        await store.startAttempt(live, attempt("gk_live", "live"));
        expect((await store.attempt("gk_live"))?.state).toBe("sending");
      });

      it("a late answer after the lease ran out still records the truth", async () => {
        let now = Date.parse("2026-11-22T10:00:00Z");
        const store = await open(undefined, () => now);
        const claim = started(await store.claimKey(request));
        await store.startAttempt(claim, attempt("gk_slow"));
        now += LEASE_MS + 1;
        await store.expireLeases();
        await store.finishAttempt("gk_slow", success);
        expect(await store.claimKey(request)).toMatchObject({
          kind: "replay",
          attempt: { state: "succeeded", transaction_id: "100001" },
        });
      });
    });

    it("records are kept for the retention window (24 h) and forgotten after it", async () => {
      let now = Date.parse("2026-11-22T10:00:00Z");
      const store = await open(undefined, () => now);
      const finish = async (reference: string) => {
        const claim = started(await store.claimKey(request));
        await store.startAttempt(claim, attempt(reference));
        await store.finishAttempt(reference, success);
      };
      await finish("gk_1");
      now += 23.9 * 3600 * 1000;
      expect(await store.purgeExpired()).toBe(0);
      expect((await store.claimKey(request)).kind).toBe("replay");
      now += 0.2 * 3600 * 1000;
      await finish("gk_2");
      now += 25 * 3600 * 1000;
      expect(await store.purgeExpired()).toBe(1);
      expect((await store.claimKey(request)).kind).toBe("started");
    });
  });

  describe("attempts (AttemptStore)", () => {
    it("survives a restart", async () => {
      const place = await adapter.place();
      const first = await adapter.open(place);
      const claim = started(await first.claimKey(request));
      await first.startAttempt(claim, attempt("gk_a"));
      await first.finishAttempt("gk_a", success);
      await first.close();
      expect(await (await open(place)).claimKey(request)).toMatchObject({
        kind: "replay",
        attempt: { reference: "gk_a", state: "succeeded" },
      });
    });

    it("records attempts as sending, then with their outcome", async () => {
      const store = await open();
      const claim = started(await store.claimKey(request));
      await store.startAttempt(claim, attempt("gk_a"));
      expect(await store.attempt("gk_a")).toMatchObject({
        state: "sending",
        amount: "25.75",
        transaction_id: null,
      });
      await store.finishAttempt("gk_a", {
        state: "rejected",
        upstream_status: 400,
        transaction_id: null,
        message: null,
        problem_code: "invalid_peer",
        problem_field: "peer_fundraiser_id",
      });
      expect(await store.attempts()).toEqual([
        expect.objectContaining({
          reference: "gk_a",
          state: "rejected",
          upstream_status: 400,
          problem_code: "invalid_peer",
          problem_field: "peer_fundraiser_id",
          peer_fundraiser_id: "101",
          utm: '{"utm_source":"newsletter","utm_campaign":"giving-tuesday"}',
        }),
      ]);
    });
  });

  describe("reconciliation (ReconcileStore)", () => {
    it("lists attempts by state and since, oldest first", async () => {
      const clock = { now: Date.parse("2026-11-22T10:00:00Z") };
      const store = await open(undefined, () => clock.now);
      await unknownAttempt(store, "gk_old", clock);
      clock.now = Date.parse("2026-11-22T12:00:00Z");
      await unknownAttempt(store, "gk_new", clock);
      const done = started(await store.claimKey({ ...request, key: "paid" }));
      await store.startAttempt(done, attempt("gk_paid", "paid"));
      await store.finishAttempt("gk_paid", success);
      expect(refs(await store.listAttempts({ state: "unknown" }))).toEqual(["gk_old", "gk_new"]);
      expect(refs(await store.listAttempts({ state: "unknown", since: "2026-11-22T11:00:00.000Z" }))).toEqual(
        ["gk_new"],
      );
      expect(refs(await store.listAttempts({}))).toEqual(["gk_old", "gk_new", "gk_paid"]);
      expect(await store.listAttempts({ state: "not_charged" })).toEqual([]);
    });

    it("tells which transaction ids a succeeded attempt holds, of those asked about only", async () => {
      const clock = { now: Date.parse("2026-11-22T10:00:00Z") };
      const store = await open(undefined, () => clock.now);
      const paid = started(await store.claimKey({ ...request, key: "paid" }));
      await store.startAttempt(paid, attempt("gk_paid", "paid"));
      await store.finishAttempt("gk_paid", success);
      await unknownAttempt(store, "gk_settled", clock);
      await store.resolveUnknown("gk_settled", { state: "succeeded", transaction_id: "100007" });
      // A declined attempt's id (the upstream's, of the refusal) is nobody's charge.
      const refused = started(await store.claimKey({ ...request, key: "refused" }));
      await store.startAttempt(refused, attempt("gk_refused", "refused"));
      await store.finishAttempt("gk_refused", { ...success, state: "declined", transaction_id: "100003" });
      const claimed = await store.claimedTransactions(["100001", "100002", "100003", "100007"]);
      expect(claimed.toSorted()).toEqual(["100001", "100007"]);
      expect(await store.claimedTransactions(["100002"])).toEqual([]);
      expect(await store.claimedTransactions([])).toEqual([]);
    });

    it("one owner at a time holds an attempt's lease, until it runs out", async () => {
      const clock = { now: Date.parse("2026-11-22T10:00:00Z") };
      const place = await adapter.place();
      const a = await open(place, () => clock.now);
      await unknownAttempt(a, "gk_u", clock);
      // Two proxies on PostgreSQL; one proxy (one connection, the directory's lock) on SQLite.
      const b = adapter.name === "postgres" ? await open(place, () => clock.now) : a;
      const owners = await Promise.all(
        Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).leaseReconcile("gk_u", `proxy-${i}`, 30_000)),
      );
      expect(owners.filter(Boolean)).toHaveLength(1);
      const holder = `proxy-${owners.indexOf(true)}`;
      expect(await a.leaseReconcile("gk_u", holder, 30_000)).toBe(true);
      expect(await b.leaseReconcile("gk_u", "proxy-other", 30_000)).toBe(false);
      clock.now += 30_001;
      expect(await b.leaseReconcile("gk_u", "proxy-late", 30_000)).toBe(true);
      // Given back by its owner (a run by hand that ended), at once another's; another's release frees nothing.
      await a.releaseReconcile("proxy-other");
      expect(await a.leaseReconcile("gk_u", "proxy-next", 30_000)).toBe(false);
      await b.releaseReconcile("proxy-late");
      expect(await a.leaseReconcile("gk_u", "proxy-next", 30_000)).toBe(true);
    });

    it("resolves an attempt only while it is unknown, and notes why one stays unknown", async () => {
      const clock = { now: Date.parse("2026-11-22T10:00:00Z") };
      const store = await open(undefined, () => clock.now);
      await unknownAttempt(store, "gk_u", clock);
      await store.noteUnknown("gk_u", "waiting until 2026-11-22T10:15:00Z for the report");
      expect((await store.attempt("gk_u"))?.note).toBe("waiting until 2026-11-22T10:15:00Z for the report");
      expect(await store.resolveUnknown("gk_u", { state: "not_charged", transaction_id: null })).toBe(true);
      expect(await store.resolveUnknown("gk_u", { state: "succeeded", transaction_id: "100009" })).toBe(
        false,
      );
      expect(await store.attempt("gk_u")).toMatchObject({
        state: "not_charged",
        transaction_id: null,
        note: null,
      });
      await store.noteUnknown("gk_u", "late note");
      expect((await store.attempt("gk_u"))?.note).toBeNull();
      // A finished attempt is never resolved by the reconciler.
      const done = started(await store.claimKey({ ...request, key: "paid" }));
      await store.startAttempt(done, attempt("gk_paid", "paid"));
      await store.finishAttempt("gk_paid", success);
      expect(await store.resolveUnknown("gk_paid", { state: "not_charged", transaction_id: null })).toBe(
        false,
      );
      expect((await store.attempt("gk_paid"))?.state).toBe("succeeded");
    });
  });

  describe("progress donors (ProgressStore)", () => {
    const campaign = "71777/HOPE";

    it("a read's donors count once its figures are saved, never halfway; a full read's replace the base", async () => {
      const store = await open();
      const claim = (token: string) =>
        store.claimProgressRead(campaign, token, 60_000, Number.MAX_SAFE_INTEGER, true);
      expect(await claim("read-1")).toBe(true);
      expect(await store.stageProgressDonors(campaign, "read-1", ["d-a", "d-b"])).toBe(true);
      expect(await store.stageProgressDonors(campaign, "read-1", ["d-c"])).toBe(true);
      // Staged, not saved: nobody counts them yet.
      expect(await store.knownDonors(campaign, ["d-a", "d-b", "d-c"])).toBe(0);
      expect(await store.saveProgress(campaign, "read-1", progressSave(3), { reset: true })).toBe(true);
      expect(await store.knownDonors(campaign, ["d-a", "d-b", "d-c", "d-x"])).toBe(3);

      // A read that fails after staging: the base stays as it was, the next read prunes its batch.
      expect(await claim("read-2")).toBe(true);
      expect(await store.stageProgressDonors(campaign, "read-2", ["d-x"])).toBe(true);
      await store.failProgressRead(campaign, "read-2", 0);
      expect(await store.stageProgressDonors(campaign, "read-2", ["d-y"])).toBe(false);
      expect(await store.knownDonors(campaign, ["d-a", "d-x", "d-y"])).toBe(1);
      expect(await claim("read-3")).toBe(true);
      expect(await store.pruneProgressDonors(campaign, "read-3", 1000)).toBe(1);
      expect(await store.pruneProgressDonors(campaign, "read-3", 1000)).toBe(0);

      // Changes add to the base (a donor already in it counts once).
      expect(await store.stageProgressDonors(campaign, "read-3", ["d-c", "d-d"])).toBe(true);
      expect(await store.saveProgress(campaign, "read-3", progressSave(4), { reset: false })).toBe(true);
      expect(await store.knownDonors(campaign, ["d-a", "d-b", "d-c", "d-d", "d-x"])).toBe(4);

      // A full read replaces them: the old base no longer counts, and is pruned in batches.
      expect(await claim("read-4")).toBe(true);
      expect(await store.stageProgressDonors(campaign, "read-4", ["d-a", "d-e"])).toBe(true);
      expect(await store.saveProgress(campaign, "read-4", progressSave(2), { reset: true })).toBe(true);
      expect(await store.knownDonors(campaign, ["d-a", "d-b", "d-c", "d-d", "d-e"])).toBe(2);
      expect(await claim("read-5")).toBe(true);
      // Five old rows (d-a, d-b, d-c of the first read; d-c, d-d of the third), two at a time.
      expect(await store.pruneProgressDonors(campaign, "read-5", 2)).toBe(2);
      expect(await store.pruneProgressDonors(campaign, "read-5", 2)).toBe(2);
      expect(await store.pruneProgressDonors(campaign, "read-5", 2)).toBe(1);
      expect(await store.pruneProgressDonors(campaign, "read-5", 2)).toBe(0);
      expect(await store.knownDonors(campaign, ["d-a", "d-b", "d-c", "d-d", "d-e"])).toBe(2);
      // Only the lease's holder prunes.
      expect(await store.pruneProgressDonors(campaign, "read-4", 2)).toBe(0);
    });
  });

  describe("consent records (ConsentStore)", () => {
    it("keeps consent records (never purged) with their outcome and the text shown", async () => {
      let now = Date.parse("2026-11-22T10:00:00Z");
      const store = await open(undefined, () => now);
      const id = await store.recordConsent({
        mobilenumber: "5550101234",
        list: "Hope Alerts",
        keyword: null,
        shortcode: null,
        consent_text_sha256: "ab".repeat(32),
        consent_text: CONSENT_SHOWN,
        ip: "203.0.113.5",
        user_agent: "Mozilla/5.0",
        page_url: "https://shelter.example/donate",
      });
      await store.finishConsent(id, "subscribed");
      now += 400 * 24 * 3600 * 1000;
      await store.purgeExpired();
      await expect.poll(async () => (await store.consents())[0]?.outcome).toBe("subscribed");
      const [record] = await store.consents();
      expect(record).toMatchObject({
        id,
        mobilenumber: "5550101234",
        list: "Hope Alerts",
        consent_text_sha256: "ab".repeat(32),
        consent_text: CONSENT_SHOWN,
        ip: "203.0.113.5",
        user_agent: "Mozilla/5.0",
        page_url: "https://shelter.example/donate",
        consented_at: "2026-11-22T10:00:00.000Z",
      });
    });

    it("keeps the language the text was shown in beside it, and none for a record without one", async () => {
      const store = await open();
      const shown = "Lè w enskri, ou dakò resevwa mesaj tèks otomatik regilye nan men Hope Shelter.";
      const record = (consent_locale?: string) =>
        store.recordConsent({
          mobilenumber: "5550101234",
          list: "Hope Alerts",
          keyword: null,
          shortcode: null,
          consent_text_sha256: consent_locale ? "cd".repeat(32) : "ef".repeat(32),
          consent_text: consent_locale ? shown : CONSENT_SHOWN,
          ...(consent_locale && { consent_locale }),
          ip: "203.0.113.5",
          user_agent: null,
          page_url: null,
        });
      await record("ht");
      await record();
      const records = await store.consents();
      expect(records.map(({ consent_text, consent_locale }) => [consent_text, consent_locale])).toEqual([
        [shown, "ht"],
        [CONSENT_SHOWN, null],
      ]);
    });

    it("keeps every record's text when many share one, and each its own when they differ", async () => {
      const store = await open();
      const consent = (text: string, sha: string) =>
        store.recordConsent({
          mobilenumber: "5550101234",
          list: "Hope Alerts",
          keyword: null,
          shortcode: null,
          consent_text_sha256: sha,
          consent_text: text,
          ip: "203.0.113.5",
          user_agent: null,
          page_url: null,
        });
      await consent(CONSENT_SHOWN, "ab".repeat(32));
      await consent(CONSENT_SHOWN, "ab".repeat(32));
      await consent(`${CONSENT_SHOWN} (en español)`, "cd".repeat(32));
      expect((await store.consents()).map((record) => record.consent_text)).toEqual([
        CONSENT_SHOWN,
        CONSENT_SHOWN,
        `${CONSENT_SHOWN} (en español)`,
      ]);
    });
  });

  describe("defence mode (DefenceStore)", () => {
    it("defence mode: a crossing starts a period once, later ones prolong it, its end is told once", async () => {
      let now = Date.parse("2026-11-23T22:00:00Z");
      const store = await open(undefined, () => now);
      const first = await store.crossDefence("all", "bin_run", 6, 60_000);
      expect(first).toEqual({
        entered: true,
        state: { scope: "all", signal: "bin_run", value: 6, since: now, until: now + 60_000, ended: false },
      });
      now += 30_000;
      const again = await store.crossDefence("all", "declines_per_min", 12, 60_000);
      // Still the period bin_run started, now until 60 s after this crossing.
      expect(again).toEqual({ entered: false, state: { ...first.state, until: now + 60_000 } });
      await store.crossDefence("71777/HOPE", "tokens_per_min", 30, 10_000);
      expect((await store.defenceStates(["71777/HOPE"])).map((state) => state.scope)).toEqual(["71777/HOPE"]);
      expect(await store.endDefences()).toEqual([]);

      now += 60_000;
      const ended = await store.endDefences();
      expect(ended.map((state) => [state.scope, state.ended]).toSorted()).toEqual([
        ["71777/HOPE", true],
        ["all", true],
      ]);
      expect(await store.endDefences()).toEqual([]);
      const next = await store.crossDefence("all", "cards_per_min", 40, 60_000);
      expect(next).toMatchObject({
        entered: true,
        state: { signal: "cards_per_min", since: now, ended: false },
      });
      // A period volume started takes on evidence that crosses while it is on (not the other way).
      now += 10_000;
      const evidence = await store.crossDefence("all", "bin_run", 6, 60_000);
      expect(evidence).toEqual({
        entered: false,
        state: { ...next.state, signal: "bin_run", value: 6, until: now + 60_000 },
      });
      const volume = await store.crossDefence("all", "tokens_per_min", 61, 60_000);
      expect(volume.state).toMatchObject({ signal: "bin_run", value: 6, since: next.state.since });
    });
  });

  describe("counters and buckets (Counters)", () => {
    it("counters: hits add up within their time, start again after it, and a set overrides", async () => {
      let now = Date.parse("2026-11-24T07:00:00Z");
      const store = await open(undefined, () => now);
      // SQLite (one proxy) keeps none: each proxy counts in its own memory.
      const counters = store.counters ?? memoryCounters(() => now);
      const tokens = { key: "tokens:198.51.100.7", points: 1, ttlMs: 60_000 };
      const declines = { key: "declines:198.51.100.7", points: 0, ttlMs: 600_000 };
      expect(await counters.add([declines, tokens])).toEqual([
        { points: 0, resetAt: now + 600_000 },
        { points: 1, resetAt: now + 60_000 },
      ]);
      const began = now;
      now += 30_000;
      // The same key twice in one call counts twice; each hit gets the key's state, in order.
      expect(await counters.add([tokens, { ...declines, points: 1 }, tokens])).toEqual([
        { points: 3, resetAt: began + 60_000 },
        { points: 1, resetAt: began + 600_000 },
        { points: 3, resetAt: began + 60_000 },
      ]);
      now += 30_000;
      expect(await counters.add([tokens])).toEqual([{ points: 1, resetAt: now + 60_000 }]);
      await counters.set([{ ...declines, points: 6, ttlMs: 3_600_000 }]);
      expect(await counters.add([declines])).toEqual([{ points: 6, resetAt: now + 3_600_000 }]);
      expect(await counters.add([])).toEqual([]);
    });

    it("buckets: a burst at once, then a turn per interval; a refusal says when, and takes nothing", async () => {
      let now = Date.parse("2026-11-24T18:00:00Z");
      const store = await open(undefined, () => now);
      const counters = store.counters ?? memoryCounters(() => now);
      const bucket = { key: "bucket:tokens:198.51.100.7", burst: 2, intervalMs: 1000 };
      expect(await counters.take(bucket)).toEqual({ allowed: true, retryAt: now });
      expect(await counters.take(bucket)).toEqual({ allowed: true, retryAt: now });
      const began = now;
      expect(await counters.take(bucket)).toEqual({ allowed: false, retryAt: began + 1000 });
      now += 400;
      expect(await counters.take(bucket)).toEqual({ allowed: false, retryAt: began + 1000 });
      now = began + 1000;
      expect((await counters.take(bucket)).allowed).toBe(true);
      expect((await counters.take(bucket)).allowed).toBe(false);
      // A long quiet fills the bucket again, to its burst and no further.
      now += 60_000;
      const turns = [];
      for (let i = 0; i < 3; i++) turns.push((await counters.take(bucket)).allowed);
      expect(turns).toEqual([true, true, false]);
    });
  });

  describe("form step counts (FormCountStore)", () => {
    it("adds counts by their key, keeps them over a restart, and reads them by hours and campaign", async () => {
      const place = await adapter.place();
      const first = await open(place);
      await first.addFormCounts(
        [
          formCount(10, "email"),
          formCount(10, "email"),
          formCount(11, "email", { step: "card", reason: "declined" }),
        ],
        5,
      );
      await first.addFormCounts(
        [formCount(10, "email", { campaign: "71777/GALA" }), formCount(12, "direct", { device: "larger" })],
        5,
      );
      await first.close();
      stores.splice(stores.indexOf(first), 1);
      const store = await open(place);
      const rows = (filter: { fromHour: number; toHour: number; campaign?: string }) =>
        store
          .formCounts(filter)
          .then((list) =>
            list
              .map((r) => `${r.campaign} ${r.hour} ${r.step} ${r.reason} ${r.channel} ${r.device} ${r.count}`)
              .toSorted(),
          );
      expect(await rows({ fromHour: 10, toHour: 11, campaign: "71777/HOPE" })).toEqual([
        "71777/HOPE 10 shown reached email phone 2",
        "71777/HOPE 11 card declined email phone 1",
      ]);
      expect(await rows({ fromHour: 0, toHour: 100 })).toHaveLength(4);
      expect(await rows({ fromHour: 13, toHour: 20 })).toEqual([]);
    });

    it("a campaign's hour counts at most the cap of channels besides direct and other; the rest are other", async () => {
      const store = await open();
      await store.addFormCounts([formCount(10, "a"), formCount(10, "direct"), formCount(10, "b")], 2);
      await store.addFormCounts(
        [formCount(10, "c"), formCount(10, "a"), formCount(10, "other"), formCount(11, "c")],
        2,
      );
      const channels = (hour: number) =>
        store
          .formCounts({ fromHour: hour, toHour: hour })
          .then((list) => list.map((r) => `${r.channel} ${r.count}`).toSorted());
      expect(await channels(10)).toEqual(["a 2", "b 1", "direct 1", "other 2"]);
      expect(await channels(11)).toEqual(["c 1"]);
    });
  });

  describe("ops counts (OpsCountStore)", () => {
    it("adds counts by their key, keeps them over a restart, and reads a campaign's with the account's own", async () => {
      const place = await adapter.place();
      const first = await open(place);
      await first.addOpsCounts([
        op("71777/HOPE", 10, "challenge_asked", ""),
        op("71777/HOPE", 10, "challenge_asked", ""),
        op("71777/HOPE", 10, "solve_ms", "1000"),
        op("71777/GALA", 10, "refused", "too_many_declines", 3),
      ]);
      await first.addOpsCounts([op("*", 10, "upstream", "2xx", 5), op("71777/HOPE", 12, "declined", "")]);
      await first.close();
      stores.splice(stores.indexOf(first), 1);
      const store = await open(place);
      const rows = (filter: { fromHour: number; toHour: number; campaign?: string }) =>
        store
          .opsCounts(filter)
          .then((list) =>
            list.map((r) => `${r.campaign} ${r.hour} ${r.kind} ${r.label} ${r.count}`).toSorted(),
          );
      expect(await rows({ fromHour: 10, toHour: 11, campaign: "71777/HOPE" })).toEqual([
        "* 10 upstream 2xx 5",
        "71777/HOPE 10 challenge_asked  2",
        "71777/HOPE 10 solve_ms 1000 1",
      ]);
      expect(await rows({ fromHour: 0, toHour: 100 })).toHaveLength(5);
      expect(await rows({ fromHour: 13, toHour: 20 })).toEqual([]);
    });
  });

  describe("dashboard access (DashboardAccessStore)", () => {
    it("an invite is spent once; a revoke moves the generation on, for every store on the same data", async () => {
      let now = Date.parse("2026-11-28T18:00:00Z");
      const place = await adapter.place();
      const store = await open(place, () => now);
      expect(await store.dashboardGeneration()).toBe(1);
      expect(await store.spendDashboardInvite("invite-1", now + 60_000)).toBe(true);
      expect(await store.spendDashboardInvite("invite-1", now + 60_000)).toBe(false);
      expect(await store.spendDashboardInvite("invite-2", now + 60_000)).toBe(true);
      expect(await store.revokeDashboard()).toBe(2);
      expect(await store.dashboardGeneration()).toBe(2);
      // Past its end a spent invite is forgotten (its link is refused as expired by then anyway).
      now += 120_000;
      expect(await store.spendDashboardInvite("invite-3", now + 60_000)).toBe(true);
    });
  });

  describe("saved forms (SavedFormStore)", () => {
    it("keeps every version with who saved it and when; a save from an older version adds nothing and says which is latest", async () => {
      let now = Date.parse("2026-12-06T18:00:00Z");
      const place = await adapter.place();
      const store = await open(place, () => now);
      expect(await store.savedForm("year-end")).toBeNull();
      const first = await store.saveFormVersion(form("25,50,100"), 0);
      expect(first).toEqual({
        saved: { ...form("25,50,100"), version: 1, savedAt: now },
      });
      now += 60_000;
      const second = await store.saveFormVersion(form("50,100,250", "Dana"), 1);
      expect("saved" in second && second.saved.version).toBe(2);
      // Two staff both started from version 1: the second is told of version 2, and nothing of theirs is kept.
      const late = await store.saveFormVersion(form("10,20", "Sam"), 1);
      expect(late).toEqual({ changed: { ...form("50,100,250", "Dana"), version: 2, savedAt: now } });
      // A new form whose name is taken is told too; one that skips a version is not saved.
      expect("changed" in (await store.saveFormVersion(form("10"), 0))).toBe(true);
      expect("changed" in (await store.saveFormVersion(form("10"), 5))).toBe(true);
      await store.saveFormVersion({ ...form("5"), name: "gala" }, 0);
      await store.close();
      stores.splice(stores.indexOf(store), 1);
      const reopened = await open(place, () => now);
      expect((await reopened.savedForm("year-end"))?.version).toBe(2);
      expect((await reopened.savedFormVersions("year-end", 10)).map((v) => [v.version, v.author])).toEqual([
        [2, "Dana"],
        [1, "events desk"],
      ]);
      expect((await reopened.savedFormVersions("year-end", 1)).map((v) => v.version)).toEqual([2]);
      expect((await reopened.savedForms()).map((v) => [v.name, v.version])).toEqual([
        ["gala", 1],
        ["year-end", 2],
      ]);
    });
  });

  describe("health", () => {
    it("reports its health", async () => {
      expect(await (await open()).healthy()).toBe(true);
    });
  });
});

describe("on PostgreSQL, with several proxies", () => {
  const postgres = adapters[1]!;

  it("two proxies purging at once forget each old record once, and neither fails", async () => {
    let now = Date.parse("2026-11-22T10:00:00Z");
    const place = await postgres.place();
    const [a, b] = [await postgres.open(place, () => now), await postgres.open(place, () => now)];
    stores.push(a!, b!);
    for (let i = 0; i < 30; i++) {
      const claim = started(await a!.claimKey({ ...request, key: `old-${i}` }));
      await a!.startAttempt(claim, attempt(`gk_old_${i}`, `old-${i}`));
      await a!.finishAttempt(`gk_old_${i}`, success);
    }
    now += 25 * 3600 * 1000;
    const purged = await Promise.all([a!.purgeExpired(), b!.purgeExpired(), a!.purgeExpired()]);
    const again = await b!.purgeExpired();
    expect(purged.reduce((sum, n) => sum + n, 0) + again).toBe(30);
    expect(await sql(place, "SELECT count(*)::int AS n FROM idempotency_keys")).toEqual([{ n: 0 }]);
    // The attempts themselves are kept: they are the donation records.
    expect(await a!.attempts()).toHaveLength(30);
  });

  it("two proxies crossing at once: one of them starts defence mode; one of them tells its end", async () => {
    let now = Date.parse("2026-11-23T22:00:00Z");
    const place = await postgres.place();
    const [a, b] = [await postgres.open(place, () => now), await postgres.open(place, () => now)];
    stores.push(a!, b!);
    const crossings = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 ? a! : b!).crossDefence("all", "declines_per_min", 10 + i, 5000),
      ),
    );
    expect(crossings.filter((crossing) => crossing.entered)).toHaveLength(1);
    now += 6000;
    const ends = await Promise.all([a!.endDefences(), b!.endDefences(), a!.endDefences(), b!.endDefences()]);
    expect(ends.flat().map((state) => state.scope)).toEqual(["all"]);
  });

  it("counters are shared: 40 calls at once over two proxies, the same keys in either order, count 40 each", async () => {
    const place = await postgres.place();
    const [a, b] = [await postgres.open(place), await postgres.open(place)];
    stores.push(a!, b!);
    // Each call touches the same three keys, as a tokenization's signals do, from either proxy.
    const hits = ["sig-tokens-min:all", "sig-tokens-min:71777/HOPE", "tokens:198.51.100.7"].map((key) => ({
      key,
      points: 1,
      ttlMs: 60_000,
    }));
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? a! : b!).counters!.add(i % 3 ? hits : hits.toReversed())),
    );
    // Every count from 1 to 40 was seen exactly once on each key: none lost, none counted twice.
    for (const [index] of hits.entries()) {
      const seen = answers.map((states, i) => states[i % 3 ? index : hits.length - 1 - index]!.points);
      expect(seen.toSorted((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    }
    expect(await sql(place, "SELECT key, points FROM givekit_rate_limits ORDER BY key")).toEqual(
      hits.map((hit) => ({ key: hit.key, points: 40 })).toSorted((x, y) => (x.key < y.key ? -1 : 1)),
    );
  });

  it("saved forms are shared: 10 saves at once from one version over two proxies keep exactly one, and both read it", async () => {
    const place = await postgres.place();
    const [a, b] = [await postgres.open(place), await postgres.open(place)];
    stores.push(a!, b!);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        (i % 2 ? a! : b!).saveFormVersion(
          { name: "year-end", campaign: "71777/HOPE", design: `{"n":${i}}`, author: `staff ${i}` },
          0,
        ),
      ),
    );
    const saved = results.filter((r) => "saved" in r);
    expect(saved).toHaveLength(1);
    const kept = (saved[0] as { saved: { design: string } }).saved.design;
    // Each of the others is told of the one kept.
    const told = results.flatMap((r) => ("changed" in r ? [r.changed?.design] : []));
    expect(told).toEqual(Array.from({ length: 9 }, () => kept));
    expect((await a!.savedForm("year-end"))?.design).toBe(kept);
    expect(await b!.savedFormVersions("year-end", 10)).toHaveLength(1);
  });

  it("dashboard access is shared: an invite spent on one proxy is spent on the other; a revoke ends it on both", async () => {
    const place = await postgres.place();
    const [a, b] = [await postgres.open(place), await postgres.open(place)];
    stores.push(a!, b!);
    const until = Date.now() + 60_000;
    const spent = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 ? a! : b!).spendDashboardInvite("invite-1", until)),
    );
    expect(spent.filter(Boolean)).toHaveLength(1);
    expect(await a!.revokeDashboard()).toBe(2);
    expect(await b!.dashboardGeneration()).toBe(2);
    expect(await sql(place, "SELECT id FROM dashboard_invites")).toEqual([{ id: "invite-1" }]);
  });

  it("the channel cap holds across proxies: 40 new channels at once over two proxies keep at most the cap", async () => {
    const place = await postgres.place();
    const [a, b] = [await postgres.open(place), await postgres.open(place)];
    stores.push(a!, b!);
    await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? a! : b!).addFormCounts([formCount(20, `c${i}`)], 5)),
    );
    const rows = await a!.formCounts({ fromHour: 20, toHour: 20 });
    expect(rows.filter((row) => row.channel !== "other")).toHaveLength(5);
    expect(rows.reduce((sum, row) => sum + row.count, 0)).toBe(40);
  });

  it("ops counts are shared: 40 adds at once over two proxies, on the same rows, lose none", async () => {
    const place = await postgres.place();
    const [a, b] = [await postgres.open(place), await postgres.open(place)];
    stores.push(a!, b!);
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (i % 2 ? a! : b!).addOpsCounts([
          op("71777/HOPE", 20, "declined", ""),
          op("*", 20, "upstream", "donate:answered", 2),
        ]),
      ),
    );
    const rows = await b!.opsCounts({ fromHour: 20, toHour: 20, campaign: "71777/HOPE" });
    expect(rows.map((r) => `${r.campaign} ${r.kind} ${r.count}`).toSorted()).toEqual([
      "* upstream 80",
      "71777/HOPE declined 40",
    ]);
  });

  it("a bucket is shared: 40 turns at once over two proxies take exactly its burst, round after round", async () => {
    const place = await postgres.place();
    const [a, b] = [await postgres.open(place), await postgres.open(place)];
    stores.push(a!, b!);
    // Ten rounds, each a new bucket: the first turns race to make its row.
    for (let round = 0; round < 10; round++) {
      const bucket = { key: `bucket:tokens:198.51.100.${round}`, burst: 10, intervalMs: 3_600_000 };
      const began = Date.now();
      const turns = await Promise.all(
        Array.from({ length: 40 }, (_, i) => (i % 2 ? a! : b!).counters!.take(bucket)),
      );
      expect(turns.filter((turn) => turn.allowed)).toHaveLength(10);
      for (const turn of turns.filter((each) => !each.allowed)) expect(turn.retryAt).toBeGreaterThan(began);
    }
  });
});
