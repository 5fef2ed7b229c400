/**
 * The SQLite store's schema, versioned with `PRAGMA user_version` and migrated at open (under
 * the data directory's lock, so by one proxy at a time). Version 1 is the store as it was
 * before versions were kept; a file from then is migrated like any other.
 */
import type Database from "better-sqlite3";
import { SchemaTooNewError } from "../schema-version";

const MIGRATIONS: string[] = [
  // 1: idempotency keys with stored answers, attempts, consent records.
  `
  CREATE TABLE IF NOT EXISTS idempotency_keys (
    client_scope TEXT NOT NULL,
    idempotency_key TEXT NOT NULL,
    endpoint TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('in_flight', 'done')),
    reference TEXT,
    status INTEGER,
    body TEXT,
    created_at INTEGER NOT NULL,
    completed_at INTEGER,
    PRIMARY KEY (client_scope, idempotency_key)
  );
  CREATE INDEX IF NOT EXISTS idempotency_keys_created ON idempotency_keys (created_at);
  CREATE TABLE IF NOT EXISTS donation_attempts (
    reference TEXT PRIMARY KEY,
    idempotency_key TEXT NOT NULL,
    client_scope TEXT NOT NULL,
    client_ip TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    shortcode TEXT NOT NULL,
    keyword TEXT NOT NULL,
    amount TEXT NOT NULL,
    fee_amount TEXT NOT NULL,
    recurring_frequency TEXT,
    peer_fundraiser_id TEXT,
    peer_fundraiser_team_id TEXT,
    state TEXT NOT NULL,
    upstream_status INTEGER,
    transaction_id TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS donation_attempts_state ON donation_attempts (state);
  CREATE TABLE IF NOT EXISTS consent_records (
    id INTEGER PRIMARY KEY,
    mobilenumber TEXT NOT NULL,
    list TEXT,
    keyword TEXT,
    shortcode TEXT,
    consent_text_sha256 TEXT NOT NULL,
    consented_at TEXT NOT NULL,
    ip TEXT NOT NULL,
    user_agent TEXT,
    page_url TEXT,
    outcome TEXT NOT NULL
  );
  `,
  // 2: claims with leases; answers rebuilt from the attempt's state, no stored bodies.
  `
  ALTER TABLE idempotency_keys ADD COLUMN claim_token TEXT;
  ALTER TABLE idempotency_keys ADD COLUMN lease_until INTEGER;
  ALTER TABLE idempotency_keys DROP COLUMN status;
  ALTER TABLE idempotency_keys DROP COLUMN body;
  UPDATE idempotency_keys SET lease_until = 0 WHERE state = 'in_flight';
  CREATE INDEX idempotency_keys_reference ON idempotency_keys (reference);
  ALTER TABLE donation_attempts ADD COLUMN message TEXT;
  ALTER TABLE donation_attempts ADD COLUMN problem_code TEXT;
  ALTER TABLE donation_attempts ADD COLUMN problem_field TEXT;
  `,
  // 3: the reconciler's note on an unknown attempt, and its lease per attempt.
  `
  ALTER TABLE donation_attempts ADD COLUMN note TEXT;
  CREATE INDEX donation_attempts_created ON donation_attempts (created_at);
  CREATE TABLE reconcile_leases (
    reference TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    lease_until INTEGER NOT NULL
  );
  `,
  // 4: each consent text word for word, kept once however many records share it.
  `
  CREATE TABLE consent_texts (
    sha256 TEXT PRIMARY KEY,
    text TEXT NOT NULL
  );
  `,
  // 5: defence mode per scope (all campaigns, or one), for `givekit doctor` and one log line per change.
  `
  CREATE TABLE defence_modes (
    scope TEXT PRIMARY KEY,
    signal TEXT NOT NULL,
    value REAL NOT NULL,
    since_ms INTEGER NOT NULL,
    until_ms INTEGER NOT NULL,
    ended INTEGER NOT NULL DEFAULT 0,
    started_by TEXT NOT NULL
  );
  `,
  // 6: the campaign tags (utm_*) of the page each donation came from.
  `
  ALTER TABLE donation_attempts ADD COLUMN utm TEXT;
  `,
  // 7: campaign progress figures, their base, the lease on reading the report (proxy/campaign/progress.ts).
  `
  CREATE TABLE progress_figures (
    campaign TEXT PRIMARY KEY,
    raised_cents INTEGER NOT NULL DEFAULT 0,
    donors INTEGER NOT NULL DEFAULT 0,
    gifts INTEGER NOT NULL DEFAULT 0,
    read_at INTEGER NOT NULL DEFAULT 0,
    full_at INTEGER NOT NULL DEFAULT 0,
    base_before INTEGER NOT NULL DEFAULT 0,
    base_cents INTEGER NOT NULL DEFAULT 0,
    base_gifts INTEGER NOT NULL DEFAULT 0,
    base_donors INTEGER NOT NULL DEFAULT 0,
    base_anonymous INTEGER NOT NULL DEFAULT 0,
    lease_token TEXT,
    lease_until INTEGER NOT NULL DEFAULT 0,
    failures INTEGER NOT NULL DEFAULT 0,
    retry_at INTEGER NOT NULL DEFAULT 0
  );
  CREATE TABLE progress_donors (
    campaign TEXT NOT NULL,
    donor TEXT NOT NULL,
    PRIMARY KEY (campaign, donor)
  ) WITHOUT ROWID;
  `,
  // 8: \`givekit attempts --state S\` pages through one state in time order, however many rows.
  `
  CREATE INDEX donation_attempts_state_created ON donation_attempts (state, created_at);
  `,
  // 9: each peer campaign's fundraisers and teams as last read, and who may read them next.
  `
  CREATE TABLE peer_snapshots (
    campaign TEXT PRIMARY KEY,
    version INTEGER NOT NULL,
    read_at INTEGER NOT NULL,
    body BLOB NOT NULL
  );
  CREATE TABLE peer_read_leases (
    campaign TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    lease_until INTEGER NOT NULL
  );
  `,
  // 10: the webhook outbox (proxy/webhooks): one row per event and endpoint, written with the outcome.
  `
  CREATE TABLE webhook_outbox (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id TEXT NOT NULL,
    event_type TEXT NOT NULL,
    endpoint TEXT NOT NULL,
    order_key TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    state TEXT NOT NULL DEFAULT 'pending',
    attempts INTEGER NOT NULL DEFAULT 0,
    next_at INTEGER NOT NULL,
    lease_owner TEXT,
    lease_until INTEGER NOT NULL DEFAULT 0,
    last_error TEXT,
    last_status INTEGER,
    done_at INTEGER,
    UNIQUE (event_id, endpoint)
  );
  CREATE INDEX webhook_outbox_due ON webhook_outbox (state, next_at);
  CREATE INDEX webhook_outbox_order ON webhook_outbox (endpoint, order_key, state, seq);
  `,
  // 11: the newest gifts a room may see, kept beside the campaign's figures (proxy/campaign/wall.ts).
  `
  ALTER TABLE progress_figures ADD COLUMN wall TEXT NOT NULL DEFAULT '[]';
  `,
  // 12: what the report credits each fundraiser and team (proxy/campaign/leaderboard.ts); NULL until a full read sums it.
  `
  ALTER TABLE progress_figures ADD COLUMN credits TEXT;
  `,
  // 13: the dashboard's counts of the form's steps (contract/form-steps.ts), never per person;
  // its spent invites and the generation a revoke moves on (proxy/dashboard/).
  `
  CREATE TABLE form_step_counts (
    campaign TEXT NOT NULL,
    hour INTEGER NOT NULL,
    step TEXT NOT NULL,
    reason TEXT NOT NULL,
    channel TEXT NOT NULL,
    device TEXT NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (campaign, hour, step, reason, channel, device)
  ) WITHOUT ROWID;
  CREATE INDEX form_step_counts_hour ON form_step_counts (hour);
  CREATE TABLE dashboard_invites (
    id TEXT PRIMARY KEY,
    expires_at INTEGER NOT NULL
  );
  CREATE TABLE dashboard_generation (
    one INTEGER PRIMARY KEY CHECK (one = 1),
    generation INTEGER NOT NULL
  );
  INSERT INTO dashboard_generation (one, generation) VALUES (1, 1);
  `,
  // 14: the reconciler asks which transaction ids an attempt already holds (proxy/reconcile).
  `
  CREATE INDEX donation_attempts_transaction ON donation_attempts (transaction_id);
  `,
  // 15: a read's donor hashes are written in batches under a number of their own (seq), counted
  // once the read is saved: from donors_from to donors_saved (proxy/store/types.ts ProgressStore).
  `
  ALTER TABLE progress_donors RENAME TO progress_donors_before_seq;
  CREATE TABLE progress_donors (
    campaign TEXT NOT NULL,
    donor TEXT NOT NULL,
    seq INTEGER NOT NULL,
    PRIMARY KEY (campaign, donor, seq)
  ) WITHOUT ROWID;
  CREATE INDEX progress_donors_seq ON progress_donors (campaign, seq);
  INSERT INTO progress_donors (campaign, donor, seq) SELECT campaign, donor, 0 FROM progress_donors_before_seq;
  DROP TABLE progress_donors_before_seq;
  ALTER TABLE progress_figures ADD COLUMN donors_from INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE progress_figures ADD COLUMN donors_saved INTEGER NOT NULL DEFAULT 0;
  `,
  // 16: the dashboard's counts of what the proxy did (proxy/dashboard/ops-counts.ts): challenges,
  // refusals, declines, upstream answers and time buckets, per campaign and hour, never per person.
  `
  CREATE TABLE ops_counts (
    campaign TEXT NOT NULL,
    hour INTEGER NOT NULL,
    kind TEXT NOT NULL,
    label TEXT NOT NULL,
    count INTEGER NOT NULL,
    PRIMARY KEY (campaign, hour, kind, label)
  ) WITHOUT ROWID;
  CREATE INDEX ops_counts_hour ON ops_counts (hour);
  `,
  // 17: the notes the proxy shares with the command line (proxy/store/sqlite/notes.ts): its open
  // circuit breakers, and the venues `givekit defence allow` or the dashboard let through.
  `
  CREATE TABLE shared_notes (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL,
    expire_ms INTEGER NOT NULL
  ) WITHOUT ROWID;
  `,
  // 18: the language a consent's disclosure was shown in (widget/i18n), kept beside its text.
  `
  ALTER TABLE consent_records ADD COLUMN consent_locale TEXT;
  `,
  // 19: the form session a donation came from (its card token's), so a Pending gift that settles
  // later is counted in the dashboard's funnel as a thank-you or a decline (proxy/dashboard).
  `
  ALTER TABLE donation_attempts ADD COLUMN form_session TEXT;
  `,
  // 20: the dashboard's saved forms (contract/saved-forms.ts), every version with who saved it and when.
  `
  CREATE TABLE saved_forms (
    name TEXT NOT NULL,
    version INTEGER NOT NULL,
    campaign TEXT NOT NULL,
    design TEXT NOT NULL,
    author TEXT NOT NULL,
    saved_at INTEGER NOT NULL,
    PRIMARY KEY (name, version)
  );
  `,
];
/** The schema version this code writes. */
export const SQLITE_SCHEMA_VERSION = MIGRATIONS.length;

/** Brings the file to SQLITE_SCHEMA_VERSION; refuses one that is newer. */
export function migrateSqlite(db: Database.Database): void {
  const found = db.pragma("user_version", { simple: true }) as number;
  if (found > SQLITE_SCHEMA_VERSION) throw new SchemaTooNewError(found, SQLITE_SCHEMA_VERSION);
  for (let version = found + 1; version <= SQLITE_SCHEMA_VERSION; version++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version - 1]!);
      db.pragma(`user_version = ${version}`);
    })();
  }
}
