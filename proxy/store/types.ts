/**
 * Everything the proxy keeps, one interface per concern, with two adapters that behave the same:
 * SQLite (one proxy, `GIVEKIT_DATA_DIR`) and PostgreSQL (any number of proxies, `DATABASE_URL`).
 * The store never holds a card number, a CVV, a token value or a request body: bodies are kept
 * as an HMAC fingerprint, and answers are rebuilt from an attempt's state.
 */
import type { PeerCredits } from "../campaign/leaderboard";
import type { WallEntry } from "../campaign/wall";

/** What became of a donation attempt. `unknown`: sent, no answer; it is never re-sent. */
export type AttemptState =
  | "sending"
  | "succeeded"
  | "declined"
  | "failed"
  | "rejected"
  | "unknown"
  | "not_sent"
  /** Was `unknown`; the transactions report shows no charge once the settle window passed. */
  | "not_charged";

export interface AttemptRecord {
  reference: string;
  idempotency_key: string;
  client_scope: string;
  client_ip: string;
  fingerprint: string;
  shortcode: string;
  keyword: string;
  /** The charged total, fee included. */
  amount: string;
  fee_amount: string;
  recurring_frequency: string | null;
  peer_fundraiser_id: string | null;
  peer_fundraiser_team_id: string | null;
  /** The campaign tags of the donor's page (contract/utm.ts), as JSON; null without any. Never sent upstream. */
  utm: string | null;
  state: AttemptState;
  upstream_status: number | null;
  transaction_id: string | null;
  /** The upstream's message on success. */
  message: string | null;
  /** For a refused or failed attempt: the problem code answered, and the field it names. */
  problem_code: string | null;
  problem_field: string | null;
  /** Why an `unknown` attempt is still unknown, for a person (waiting until …, ambiguous: …). */
  note: string | null;
  /**
   * The form session its card token was made in (null: none, or kept before it was): a Pending
   * gift's thank-you or decline is counted under it once it settles (proxy/dashboard). Never shown.
   */
  form_session: string | null;
  created_at: string;
  updated_at: string;
}

/** An attempt as the route knows it before the upstream call. */
export type NewAttempt = Omit<
  AttemptRecord,
  | "state"
  | "upstream_status"
  | "transaction_id"
  | "message"
  | "problem_code"
  | "problem_field"
  | "note"
  | "form_session"
  | "created_at"
  | "updated_at"
> & { form_session?: string | null };

/** What came back from the upstream (or did not). */
export interface AttemptOutcome {
  state: Exclude<AttemptState, "sending" | "not_sent" | "not_charged">;
  upstream_status: number | null;
  transaction_id: string | null;
  message: string | null;
  problem_code: string | null;
  problem_field: string | null;
}

/** Which attempts to list: of one state, and/or created at or after `since` (ISO 8601). */
export interface AttemptFilter {
  state?: AttemptState;
  since?: string;
}

/** What the transactions report showed an `unknown` attempt became. */
export interface Reconciliation {
  state: "succeeded" | "declined" | "failed" | "not_charged";
  transaction_id: string | null;
}

export interface ConsentRecord {
  id: number;
  mobilenumber: string;
  list: string | null;
  keyword: string | null;
  shortcode: string | null;
  consent_text_sha256: string;
  /** The disclosure the person was shown, word for word; null on records kept before it was. */
  consent_text: string | null;
  /** The language that text was shown in ("ht", "en"…); null on records kept before it was. */
  consent_locale: string | null;
  consented_at: string;
  ip: string;
  user_agent: string | null;
  page_url: string | null;
  outcome: string;
}

export type NewConsent = Omit<
  ConsentRecord,
  "id" | "consented_at" | "outcome" | "consent_text" | "consent_locale"
> & {
  consent_text: string;
  consent_locale?: string | null;
};

export interface ClaimRequest {
  scope: string;
  key: string;
  endpoint: string;
  fingerprint: string;
}

/** A claim this process holds on a key, until it finishes, releases, or its lease runs out. */
export interface Claim {
  scope: string;
  key: string;
  /** Random per claim: a claim taken over after its lease ran out is no longer this one. */
  token: string;
}

export type ClaimResult =
  | { kind: "started"; claim: Claim }
  /** The key is finished: the answer is rebuilt from its attempt. */
  | { kind: "replay"; attempt: AttemptRecord }
  | { kind: "mismatch" }
  | { kind: "in_flight" };

/**
 * Defence mode in one scope ("all", or one campaign "71777/HOPE"), as every proxy sees it: on
 * from `since` until `until` (ms since the epoch), unless a further crossing moves `until`.
 */
export interface DefenceState {
  scope: string;
  /** The signal that started this period, and its value then. */
  signal: string;
  value: number;
  since: number;
  until: number;
  /** Its end has been logged (by exactly one proxy). */
  ended: boolean;
}

/** A change to a counter: `points` added (0: only read); its count starts again `ttlMs` after it began. */
export interface CounterHit {
  key: string;
  points: number;
  ttlMs: number;
}

export interface CounterState {
  points: number;
  /** When the count starts again (milliseconds since the epoch). */
  resetAt: number;
}

/**
 * A token bucket's turn: `burst` requests at once, then one every `intervalMs` (a burst, then a
 * steady refill). Kept as its theoretical arrival time (GCRA), one number per key.
 */
export interface BucketTake {
  key: string;
  burst: number;
  intervalMs: number;
}

export interface BucketState {
  allowed: boolean;
  /** When the bucket next has a turn (milliseconds since the epoch); now or earlier when allowed. */
  retryAt: number;
}

/** Counters with a time to live (proxy/store/counters.ts): the rate limits' and the defence signals'. */
export interface Counters {
  /**
   * Adds every hit at once (one statement on PostgreSQL) and gives each counter's state after it,
   * in the order of `hits`. A counter whose time is over starts again from the hit's points.
   */
  add(hits: readonly CounterHit[]): Promise<CounterState[]>;
  /** Sets counters outright, each from now for its `ttlMs` (a block). */
  set(hits: readonly CounterHit[]): Promise<void>;
  /** Takes a turn from a token bucket (one statement on PostgreSQL); a refused turn takes nothing. */
  take(bucket: BucketTake): Promise<BucketState>;
  /** Keeps a short note under a key for `ttlMs` (a minted card token's facts), never a secret. */
  remember(key: string, value: string, ttlMs: number): Promise<void>;
  /** The note under a key while it lives, else null. */
  recall(key: string): Promise<string | null>;
  /** Every living note whose key starts with `prefix` (the open breakers, the venues let through). */
  notesUnder(prefix: string): Promise<{ key: string; value: string; expire: number }[]>;
}

/**
 * The notes every process on the store reads, the command line's included: the circuit breakers
 * open now (`breaker:`) and the venues let through them (`breaker-allow:`). On PostgreSQL they
 * are the shared counters' notes; on SQLite a table the running proxy writes and reads.
 */
export type SharedNotes = Pick<Counters, "remember" | "recall" | "notesUnder">;

/** Idempotency keys: claimed across every proxy, released, expired with their proxy, purged. */
export interface IdempotencyStore {
  /** Claims an idempotency key atomically across every proxy on this store, or says why not. */
  claimKey(request: ClaimRequest): Promise<ClaimResult>;
  /** Frees a claim whose request never reached the upstream, so the same key may be retried. */
  releaseKey(claim: Claim): Promise<void>;
  /**
   * Claims whose lease ran out (their proxy died): an attempt left `sending` becomes `unknown`
   * and its key replays 202 Pending; a key without an attempt is forgotten. Returns how many
   * attempts became unknown.
   */
  expireLeases(): Promise<number>;
  /** Forgets finished idempotency records past the retention window; returns how many. */
  purgeExpired(): Promise<number>;
}

/** Donation attempts: recorded before the upstream call and after it. */
export interface AttemptStore {
  /**
   * Records an attempt as `sending` under a claim (renewing its lease), durably, before the
   * upstream call. Rejects with ClaimLostError when the claim's lease ran out meanwhile.
   */
  startAttempt(claim: Claim, attempt: NewAttempt): Promise<void>;
  /**
   * Records what came back and finishes the key, so it replays this outcome. `events` (webhook
   * outbox rows, proxy/webhooks) are written in the same transaction, durably, and only if this
   * call recorded the outcome.
   */
  finishAttempt(reference: string, outcome: AttemptOutcome, events?: readonly OutboxEvent[]): Promise<void>;
  /** Records that nothing was sent and frees the key. */
  abandonAttempt(claim: Claim, reference: string): Promise<void>;
  attempt(reference: string): Promise<AttemptRecord | undefined>;
  attempts(): Promise<AttemptRecord[]>;
  /** Attempts by state and/or time, oldest first. */
  listAttempts(filter: AttemptFilter): Promise<AttemptRecord[]>;
}

/** The reconciliation of attempts whose outcome is unknown, from the upstream's report. */
export interface ReconcileStore {
  /**
   * Takes (or renews) the reconcile lease on an attempt for `ms`, atomically across every proxy:
   * true when `owner` holds it now, false when another owner's lease is still running.
   */
  leaseReconcile(reference: string, owner: string, ms: number): Promise<boolean>;
  /** Gives back every reconcile lease `owner` holds: a pass run by hand has ended, so others need not wait. */
  releaseReconcile(owner: string): Promise<void>;
  /**
   * Resolves an attempt only while it is still `unknown`; true when this call resolved it. Its
   * `events` are written in the same transaction, only when it did.
   */
  resolveUnknown(
    reference: string,
    resolution: Reconciliation,
    events?: readonly OutboxEvent[],
  ): Promise<boolean>;
  /** Notes why an attempt stays unknown (only while it is). */
  noteUnknown(reference: string, note: string): Promise<void>;
  /**
   * Which of these upstream transaction ids a succeeded attempt already holds: looked up by an
   * index, so its cost follows the ids asked about, never the number of attempts kept.
   */
  claimedTransactions(transactionIds: readonly string[]): Promise<string[]>;
}

/** SMS consent records: kept before the number is sent, with what became of them. */
export interface ConsentStore {
  /**
   * Keeps a consent record (outcome `pending`), durably, before the number is sent, with its
   * webhook `events` in the same transaction.
   */
  recordConsent(consent: NewConsent, events?: readonly OutboxEvent[]): Promise<number>;
  /** Records what became of it; nobody waits for this write. */
  finishConsent(id: number, outcome: string): Promise<void>;
  consents(): Promise<ConsentRecord[]>;
}

/** Defence-mode periods, shared by every proxy on the store. */
export interface DefenceStore {
  /**
   * A defence signal crossed its threshold in `scope` at `now`: starts a period (`entered`, for
   * exactly one caller across every proxy) or keeps the current one on until `now + quietMs`.
   */
  crossDefence(
    scope: string,
    signal: string,
    value: number,
    quietMs: number,
  ): Promise<{ entered: boolean; state: DefenceState }>;
  /** The defence state of these scopes (none: of every scope), periods over included. */
  defenceStates(scopes?: string[]): Promise<DefenceState[]>;
  /** Marks periods past their `until` ended; each is returned to exactly one caller, to log. */
  endDefences(): Promise<DefenceState[]>;
}

/**
 * A campaign's progress figures as every proxy on the store shares them (proxy/campaign/progress.ts):
 * the figures, what they were made of (the "base": rows created before `base_before`, kept so a
 * refresh reads only the rows after it), and who reads the report now (a lease).
 */
export interface ProgressFigures {
  /** "71777/HOPE" */
  campaign: string;
  raised_cents: number;
  donors: number;
  /** Collected gifts counted. */
  gifts: number;
  /** When the report these figures come from was asked for (ms since the epoch); 0: never read. */
  read_at: number;
  /** When the last full report (every row) was asked for. */
  full_at: number;
  /** Rows created before this instant (a UTC midnight) are summed in base_*. */
  base_before: number;
  base_cents: number;
  base_gifts: number;
  /** Distinct donor e-mail addresses of the base (their hashes are in the store). */
  base_donors: number;
  /** Base rows without an e-mail address (each a donor of its own). */
  base_anonymous: number;
  /** Failed reads in a row, and when the next may start (a failed read backs off). */
  failures: number;
  retry_at: number;
  /** The newest gifts as a room may see them (proxy/campaign/wall.ts), newest first, at most WALL_KEPT. */
  wall: WallEntry[];
  /**
   * What the report credits each fundraiser and team (proxy/campaign/leaderboard.ts): the base's sums and
   * all of them. Null where never summed (figures saved before the store kept them): the next read is a full one.
   */
  credits: StoredCredits | null;
}

export interface StoredCredits {
  base: PeerCredits;
  all: PeerCredits;
}

export type ProgressSave = Omit<ProgressFigures, "campaign" | "failures" | "retry_at" | "credits"> & {
  credits: StoredCredits;
};

/** Progress figures, shared by every proxy on the store, and the lease on reading the report. */
export interface ProgressStore {
  progressFigures(campaign: string): Promise<ProgressFigures | undefined>;
  /**
   * Takes the lease on reading the campaign's report for `leaseMs` under `token`, atomically
   * across proxies: only when nobody holds a live lease, no back-off runs (unless `pastBackoff`:
   * a gift was just charged, so the upstream answers), and the figures were read at or before
   * `staleBefore`. True when this call took it.
   */
  claimProgressRead(
    campaign: string,
    token: string,
    leaseMs: number,
    staleBefore: number,
    pastBackoff?: boolean,
  ): Promise<boolean>;
  /**
   * Adds a batch of the base's donor hashes for the read `token` holds (false: the lease is no
   * longer its). Nobody counts them until saveProgress saves that read: a read that fails leaves
   * the base as it was, and its batches to pruneProgressDonors.
   */
  stageProgressDonors(campaign: string, token: string, donors: readonly string[]): Promise<boolean>;
  /**
   * Forgets up to `limit` donor hashes no saved read counts (a failed read's, or the base a full
   * read replaced), while `token` holds the lease; how many it forgot (0: none are left).
   */
  pruneProgressDonors(campaign: string, token: string, limit: number): Promise<number>;
  /**
   * Saves what a read found and ends the lease (only while `token` holds it; false if not), in
   * one write: the figures, and the donor hashes the read staged, counted from now on. With
   * `reset` (a full read) they replace the base's; else they are added to it.
   */
  saveProgress(
    campaign: string,
    token: string,
    figures: ProgressSave,
    donors: { reset: boolean },
  ): Promise<boolean>;
  /** A read failed: ends the lease, counts the failure, and no read starts before `retryAt`. */
  failProgressRead(campaign: string, token: string, retryAt: number): Promise<void>;
  /** How many of these donor hashes the campaign's base (as last saved) already has. */
  knownDonors(campaign: string, donors: readonly string[]): Promise<number>;
}

/**
 * The proxy's durable state, one interface per concern, each implemented by both adapters in a
 * file of its own (sqlite/, postgres/). Every method that resolves has made its write durable
 * (on disk, or committed in PostgreSQL); a store that cannot be reached rejects with
 * StoreUnavailableError.
 *
 * @example
 * const store = await openStore(config);
 * const claim = await store.claimKey({ scope: "origin:https://shelter.example", key: "k1", endpoint: "donations", fingerprint });
 */
export interface Store
  extends
    IdempotencyStore,
    AttemptStore,
    ReconcileStore,
    ConsentStore,
    DefenceStore,
    ProgressStore,
    ListingStore,
    PeerListStore,
    WebhookOutboxStore,
    FormCountStore,
    OpsCountStore,
    GivingCountStore,
    DashboardAccessStore,
    SavedFormStore {
  readonly kind: "sqlite" | "postgres";
  /** Whether the store answers now. */
  healthy(): Promise<boolean>;
  /** Counters every proxy on this store shares, or null: each proxy counts in its own memory. */
  readonly counters: Counters | null;
  /** The notes the command line sees too (the open breakers, the venues let through). */
  readonly sharedNotes: SharedNotes;
  close(): Promise<void>;
}

/** Options both adapters take. */
export interface StoreOptions {
  /** Finished idempotency records older than this are forgotten. */
  retentionH: number;
  /** How long a claim holds a key without its proxy finishing it, in milliseconds. */
  leaseMs: number;
  now?: () => number;
}

/**
 * The command line's listings, a page at a time whatever the store's size (`givekit attempts`,
 * `givekit consents export`): each page starts after the last row of the one before.
 */
export interface ListingStore {
  /**
   * At most `limit` attempts matching `filter`, oldest first, after the attempt whose reference
   * is `after` (null: from the first). An `after` the store does not hold gives none.
   */
  attemptsPage(filter: AttemptFilter, after: string | null, limit: number): Promise<AttemptRecord[]>;
  /** At most `limit` consent records consented at or after `since`, by id, after the id `after`. */
  consentsPage(since: string | null, after: number | null, limit: number): Promise<ConsentRecord[]>;
}

/** A campaign's fundraisers and teams as one proxy read them from the upstream (proxy/campaign/peers.ts). */
export interface PeerSnapshot {
  /** Counts up with each read kept: a proxy whose index is of this version has it already. */
  version: number;
  /** When it was read (ms since the epoch). */
  readAt: number;
  /** The peers, as the proxy encodes them (gzipped JSON). */
  body: Uint8Array;
}

/**
 * The peer lists every proxy on the store shares: one proxy reads a campaign's lists from the
 * upstream per interval (under a lease) and keeps what it read here; the others take it.
 */
export interface PeerListStore {
  /** The latest snapshot's version and time (not its body), or null when none was kept. */
  peerSnapshotVersion(campaign: string): Promise<Omit<PeerSnapshot, "body"> | null>;
  peerSnapshot(campaign: string): Promise<PeerSnapshot | null>;
  /** Takes the reading of a campaign's lists for `ms`: true for one owner at a time across every proxy. */
  leasePeerRead(campaign: string, owner: string, ms: number): Promise<boolean>;
  /** Keeps a new snapshot, read at `readAt`; resolves with its version. */
  savePeerSnapshot(campaign: string, readAt: number, body: Uint8Array): Promise<number>;
}

/** One webhook event for one endpoint, as the outbox keeps it (proxy/webhooks/from-attempt.ts builds them). */
export interface OutboxEvent {
  eventId: string;
  eventType: string;
  /** The endpoint's URL (its secret stays in the configuration). */
  endpoint: string;
  /** Events of one order key (a donation's reference) go to an endpoint one at a time, in order. */
  orderKey: string;
  /** The event as JSON, exactly as it is signed and sent. */
  body: string;
  /** Milliseconds since the epoch. */
  createdAt: number;
  /**
   * Of a gift answered Pending: kept `held` until the reconciler settles it, then sent (charged)
   * or dropped (not charged); a late answer replaces it with its own events.
   */
  held?: boolean;
}

export type OutboxState = "pending" | "delivered" | "dead" | "held";

export interface OutboxRow {
  seq: number;
  event_id: string;
  event_type: string;
  endpoint: string;
  order_key: string;
  body: string;
  created_at: number;
  state: OutboxState;
  /** Tries so far (a claim counts one). */
  attempts: number;
  next_at: number;
  last_error: string | null;
  last_status: number | null;
  done_at: number | null;
}

/** What became of one try of a claimed outbox row that was not delivered. */
export interface OutboxFailure {
  status: number | null;
  error: string;
  /** When it may be tried again (ms since the epoch). */
  nextAt: number;
  /** Past its retry window: kept as `dead`, for `givekit webhooks retry`. */
  giveUp: boolean;
}

/** The outbox's figures, for metrics and doctor. */
export interface OutboxStats {
  pending: number;
  delivered: number;
  dead: number;
  /** created_at of the oldest pending row, or null when none waits. */
  oldestPendingAt: number | null;
  /** Per endpoint with a row that failed and still waits (or was given up): since when it has. */
  failing: { endpoint: string; since: number; dead: number }[];
}

/** Which outbox rows a command means: created at or after `since`, of one endpoint or state. */
export interface OutboxFilter {
  since?: number;
  endpoint?: string;
  state?: OutboxState;
}

/**
 * The webhook outbox: rows written with what they tell of (finishAttempt, resolveUnknown,
 * recordConsent), claimed under a lease by one proxy at a time, earliest due first (for rows
 * never retried: oldest first) and one at a time per order key and endpoint; a lease
 * that runs out (its proxy was killed) frees the row again.
 */
export interface WebhookOutboxStore {
  /** Adds events that record nothing else (an alert), durably. */
  addWebhookEvents(events: readonly OutboxEvent[]): Promise<void>;
  /** Up to `limit` rows due now, leased to `owner` for `leaseMs` (each try counted). */
  claimWebhooks(owner: string, leaseMs: number, limit: number): Promise<OutboxRow[]>;
  /** False when the lease was lost (another proxy took the row over). */
  webhookDelivered(seq: number, owner: string, status: number): Promise<boolean>;
  webhookFailed(seq: number, owner: string, failure: OutboxFailure): Promise<boolean>;
  webhookStats(): Promise<OutboxStats>;
  /** At most `limit` rows matching `filter`, by seq, after `after` (null: from the first). */
  webhooksPage(filter: OutboxFilter, after: number | null, limit: number): Promise<OutboxRow[]>;
  /**
   * Makes matching rows due now: `retry` takes given-up (and waiting) rows, `replay` delivered
   * ones too (same event ids: a receiver can tell). Returns how many.
   */
  requeueWebhooks(filter: OutboxFilter, mode: "retry" | "replay"): Promise<number>;
}

/**
 * One count of the donate form's steps (contract/form-steps.ts): how many times, in one hour of
 * one campaign, donors of one channel and device class reached a step or stopped there for a
 * reason. Nothing else is kept: no session, address, name, e-mail, user agent or cookie.
 */
export interface FormStepCount {
  /** The campaign's defence scope ("71777/HOPE"). */
  campaign: string;
  /** The hour, in whole hours since the epoch (UTC). */
  hour: number;
  step: string;
  reason: string;
  channel: string;
  device: string;
  count: number;
}

/** The counts of the dashboard's funnel: bounded by campaign × hour × step × reason × channel × device. */
export interface FormCountStore {
  /**
   * Adds these counts. A channel new to its campaign's hour once that hour already has
   * `channelCap` channels (besides `direct` and `other`) is counted as `other`, so a page that
   * makes up channels cannot grow the store.
   */
  addFormCounts(counts: readonly FormStepCount[], channelCap: number): Promise<void>;
  /** The counts of the hours from `fromHour` to `toHour` (both included), of one campaign or all. */
  formCounts(filter: { fromHour: number; toHour: number; campaign?: string }): Promise<FormStepCount[]>;
  /**
   * Deletes at most `limit` rows of form step counts and at most `limit` of ops counts (OpsCountStore)
   * of hours before `beforeHour`; resolves with how many went (0: none is left). The dashboard's
   * retention (proxy/dashboard/retention.ts) calls it in batches until 0.
   */
  pruneDashboardCounts(beforeHour: number, limit: number): Promise<number>;
}

/**
 * One count of what the proxy itself did, for the dashboard's defence and health panels
 * (proxy/dashboard/ops-counts.ts names the kinds and labels): in one hour of one campaign (or
 * "*" for the whole account), how many times `kind` happened with `label` (a reason, an answer's
 * class, a time bucket). Bounded by campaign × hour × kind × label; never a person.
 */
export interface OpsCount {
  campaign: string;
  /** The hour, in whole hours since the epoch (UTC). */
  hour: number;
  kind: string;
  label: string;
  count: number;
}

/** The counts of the dashboard's defence and health panels. */
export interface OpsCountStore {
  /** Adds these counts (rows of the same key are summed). */
  addOpsCounts(counts: readonly OpsCount[]): Promise<void>;
  /** The counts of the hours from `fromHour` to `toHour` (both included), of one campaign (and "*") or all. */
  opsCounts(filter: { fromHour: number; toHour: number; campaign?: string }): Promise<OpsCount[]>;
}

/**
 * The donation attempts of some hours as the dashboard's giving panel counts them, summed by the
 * store (GROUP BY over its indexed state and time): one row per campaign, hour, state and kind of
 * gift, however many attempts there are.
 */
export interface GivingCount {
  /** The campaign's scope ("71777/HOPE"). */
  campaign: string;
  /** The hour the attempt was made, in whole hours since the epoch (UTC). */
  hour: number;
  /** Succeeded and declined are gifts and declines; sending and unknown may still change (the dashboard reads their hours again). */
  state: "succeeded" | "declined" | "sending" | "unknown";
  /** Made with a recurring frequency (monthly…). */
  recurring: boolean;
  /** Its fee amount is above zero. */
  feeCovered: boolean;
  attempts: number;
  /** The attempts' amounts summed, in cents. */
  cents: number;
}

/** What the dashboard reads of the donation attempts, as counts rather than rows. */
export interface GivingCountStore {
  /**
   * Succeeded and declined attempts made in the hours from `fromHour` to `toHour` (both included),
   * summed, and those still sending or unknown (the only states an attempt leaves).
   */
  givingCounts(filter: { fromHour: number; toHour: number }): Promise<GivingCount[]>;
  /** How many attempts wait for the reconciler (state unknown) now. */
  unknownAttempts(): Promise<number>;
}

/** Who may open the staff dashboard: single-use invites, and the generation every sign-in belongs to. */
export interface DashboardAccessStore {
  /** The current generation: a session or invite of an older one is refused (revoked). */
  dashboardGeneration(): Promise<number>;
  /** Ends every session and unused invite: the generation moves on; resolves with the new one. */
  revokeDashboard(): Promise<number>;
  /**
   * Spends an invite (by its random id) once: true the first time, false ever after. Spent ids
   * are kept until `expiresAt`, after which the invite is refused as expired anyway.
   */
  spendDashboardInvite(id: string, expiresAt: number): Promise<boolean>;
}

/** A saved form's version as the store keeps it: its design as JSON text (contract/saved-forms.ts FormDesign). */
export interface StoredFormVersion {
  name: string;
  version: number;
  /** The campaign it belongs to ("71777/HOPE"). */
  campaign: string;
  design: string;
  /** The invite's name of the staff member who saved it. */
  author: string;
  /** Ms since the epoch. */
  savedAt: number;
}

/**
 * The designs the staff save in the dashboard (/dashboard/forms), every version kept: a save
 * never changes a version, it adds the next. A save names the version it started from, and is
 * refused when another was saved since (two staff saving at once: the second is told).
 */
export interface SavedFormStore {
  /**
   * Adds version `after + 1` of `name` (`after` 0: a new form), or, when the latest is not
   * `after`, adds nothing and resolves with the latest as it is.
   */
  saveFormVersion(
    form: Omit<StoredFormVersion, "version" | "savedAt">,
    after: number,
  ): Promise<{ saved: StoredFormVersion } | { changed: StoredFormVersion | null }>;
  /** The latest version of a form, or null when none is saved. */
  savedForm(name: string): Promise<StoredFormVersion | null>;
  /** Every version of a form, the newest first (at most `limit`). */
  savedFormVersions(name: string, limit: number): Promise<StoredFormVersion[]>;
  /** The latest version of every form, by name. */
  savedForms(): Promise<StoredFormVersion[]>;
}
