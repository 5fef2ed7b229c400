/**
 * The PostgreSQL store's schema, versioned in `givekit_schema` and migrated at start under an
 * advisory lock, so proxies that start at the same moment migrate once, one after another.
 */
import type { ClientBase } from "pg";
import { SchemaTooNewError } from "../schema-version";

/** The advisory lock key of migrations ("givekit" in ASCII, as a number). */
const MIGRATION_LOCK = 0x676976656b6974n;

/** The counters of rate limits and defence signals (proxy/store/counters.ts): key, points, expiry. */
export const COUNTERS_TABLE = "givekit_rate_limits";
/** Short notes with a time to live, beside the counters (a minted card token's facts). */
export const NOTES_TABLE = "givekit_notes";

const MIGRATIONS: string[] = [
  // 1: claims with leases, attempts (answers rebuilt from their state), consent records, rate limits.
  `
  CREATE TABLE idempotency_keys (
    client_scope text NOT NULL,
    idempotency_key text NOT NULL,
    endpoint text NOT NULL,
    fingerprint text NOT NULL,
    state text NOT NULL CHECK (state IN ('in_flight', 'done')),
    reference text,
    claim_token text,
    lease_until bigint,
    created_at bigint NOT NULL,
    completed_at bigint,
    PRIMARY KEY (client_scope, idempotency_key)
  );
  CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at) WHERE state = 'done';
  CREATE INDEX idempotency_keys_leases ON idempotency_keys (lease_until) WHERE state = 'in_flight';
  CREATE INDEX idempotency_keys_reference ON idempotency_keys (reference);
  CREATE TABLE donation_attempts (
    seq bigint GENERATED ALWAYS AS IDENTITY,
    reference text PRIMARY KEY,
    idempotency_key text NOT NULL,
    client_scope text NOT NULL,
    client_ip text NOT NULL,
    fingerprint text NOT NULL,
    shortcode text NOT NULL,
    keyword text NOT NULL,
    amount text NOT NULL,
    fee_amount text NOT NULL,
    recurring_frequency text,
    peer_fundraiser_id text,
    peer_fundraiser_team_id text,
    state text NOT NULL,
    upstream_status integer,
    transaction_id text,
    message text,
    problem_code text,
    problem_field text,
    created_at text NOT NULL,
    updated_at text NOT NULL
  );
  CREATE INDEX donation_attempts_state ON donation_attempts (state);
  CREATE TABLE consent_records (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    mobilenumber text NOT NULL,
    list text,
    keyword text,
    shortcode text,
    consent_text_sha256 text NOT NULL,
    consented_at text NOT NULL,
    ip text NOT NULL,
    user_agent text,
    page_url text,
    outcome text NOT NULL
  );
  CREATE TABLE ${COUNTERS_TABLE} (
    key varchar(255) PRIMARY KEY,
    points integer NOT NULL DEFAULT 0,
    expire bigint
  );
  `,
  // 2: the reconciler's note on an unknown attempt, and its lease per attempt.
  `
  ALTER TABLE donation_attempts ADD COLUMN note text;
  CREATE INDEX donation_attempts_created ON donation_attempts (created_at);
  CREATE TABLE reconcile_leases (
    reference text PRIMARY KEY,
    owner text NOT NULL,
    lease_until bigint NOT NULL
  );
  `,
  // 3: each consent text word for word, kept once however many records share it.
  `
  CREATE TABLE consent_texts (
    sha256 text PRIMARY KEY,
    text text NOT NULL
  );
  `,
  // 4: defence mode per scope (all campaigns, or one), for `givekit doctor` and one log line per change.
  `
  CREATE TABLE defence_modes (
    scope text PRIMARY KEY,
    signal text NOT NULL,
    value double precision NOT NULL,
    since_ms bigint NOT NULL,
    until_ms bigint NOT NULL,
    ended integer NOT NULL DEFAULT 0,
    started_by text NOT NULL
  );
  `,
  // 5: the campaign tags (utm_*) of the page each donation came from.
  `
  ALTER TABLE donation_attempts ADD COLUMN utm text;
  `,
  // 6: campaign progress figures, their base, the lease on reading the report (proxy/campaign/progress.ts).
  `
  CREATE TABLE progress_figures (
    campaign text PRIMARY KEY,
    raised_cents bigint NOT NULL DEFAULT 0,
    donors bigint NOT NULL DEFAULT 0,
    gifts bigint NOT NULL DEFAULT 0,
    read_at bigint NOT NULL DEFAULT 0,
    full_at bigint NOT NULL DEFAULT 0,
    base_before bigint NOT NULL DEFAULT 0,
    base_cents bigint NOT NULL DEFAULT 0,
    base_gifts bigint NOT NULL DEFAULT 0,
    base_donors bigint NOT NULL DEFAULT 0,
    base_anonymous bigint NOT NULL DEFAULT 0,
    lease_token text,
    lease_until bigint NOT NULL DEFAULT 0,
    failures integer NOT NULL DEFAULT 0,
    retry_at bigint NOT NULL DEFAULT 0
  );
  CREATE TABLE progress_donors (
    campaign text NOT NULL,
    donor text NOT NULL,
    PRIMARY KEY (campaign, donor)
  );
  `,
  // 7: \`givekit attempts\` pages in time order (all, or one state), however many rows.
  `
  CREATE INDEX donation_attempts_created_seq ON donation_attempts (created_at, seq);
  CREATE INDEX donation_attempts_state_created_seq ON donation_attempts (state, created_at, seq);
  `,
  // 8: each peer campaign's fundraisers and teams as one proxy last read them, and the lease
  // that lets one proxy at a time read them from the upstream.
  `
  CREATE TABLE peer_snapshots (
    campaign text PRIMARY KEY,
    version bigint NOT NULL,
    read_at bigint NOT NULL,
    body bytea NOT NULL
  );
  CREATE TABLE peer_read_leases (
    campaign text PRIMARY KEY,
    owner text NOT NULL,
    lease_until bigint NOT NULL
  );
  `,
  // 9: notes beside the counters: what the proxy knows of each card token it minted.
  `
  CREATE TABLE ${NOTES_TABLE} (
    key text PRIMARY KEY,
    value text NOT NULL,
    expire bigint NOT NULL
  );
  `,
  // 10: the newest gifts a room may see, kept beside the campaign's figures (proxy/campaign/wall.ts).
  `
  ALTER TABLE progress_figures ADD COLUMN wall text NOT NULL DEFAULT '[]';
  `,
  // 11: the webhook outbox (proxy/webhooks): one row per event and endpoint, written in the
  // transaction of what it tells of, claimed by one proxy at a time under a lease.
  `
  CREATE TABLE webhook_outbox (
    seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    event_id text NOT NULL,
    event_type text NOT NULL,
    endpoint text NOT NULL,
    order_key text NOT NULL,
    body text NOT NULL,
    created_at bigint NOT NULL,
    state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'dead', 'held')),
    attempts integer NOT NULL DEFAULT 0,
    next_at bigint NOT NULL,
    lease_owner text,
    lease_until bigint NOT NULL DEFAULT 0,
    last_error text,
    last_status integer,
    done_at bigint,
    UNIQUE (event_id, endpoint)
  );
  CREATE INDEX webhook_outbox_due ON webhook_outbox (next_at) WHERE state = 'pending';
  CREATE INDEX webhook_outbox_order ON webhook_outbox (endpoint, order_key, seq) WHERE state = 'pending';
  CREATE INDEX webhook_outbox_created ON webhook_outbox (created_at);
  `,
  // 12: what the report credits each fundraiser and team (proxy/campaign/leaderboard.ts); NULL until a full read sums it.
  `
  ALTER TABLE progress_figures ADD COLUMN credits text;
  `,
  // 13: the dashboard's counts of the form's steps (contract/form-steps.ts), never per person;
  // its spent invites and the generation a revoke moves on (proxy/dashboard/).
  `
  CREATE TABLE form_step_counts (
    campaign text NOT NULL,
    hour integer NOT NULL,
    step text NOT NULL,
    reason text NOT NULL,
    channel text NOT NULL,
    device text NOT NULL,
    count bigint NOT NULL,
    PRIMARY KEY (campaign, hour, step, reason, channel, device)
  );
  CREATE INDEX form_step_counts_hour ON form_step_counts (hour);
  CREATE TABLE dashboard_invites (
    id text PRIMARY KEY,
    expires_at bigint NOT NULL
  );
  CREATE TABLE dashboard_generation (
    one integer PRIMARY KEY CHECK (one = 1),
    generation integer NOT NULL
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
  ALTER TABLE progress_donors ADD COLUMN seq bigint NOT NULL DEFAULT 0;
  ALTER TABLE progress_donors DROP CONSTRAINT progress_donors_pkey;
  ALTER TABLE progress_donors ADD PRIMARY KEY (campaign, donor, seq);
  CREATE INDEX progress_donors_seq ON progress_donors (campaign, seq);
  ALTER TABLE progress_figures ADD COLUMN donors_from bigint NOT NULL DEFAULT 0;
  ALTER TABLE progress_figures ADD COLUMN donors_saved bigint NOT NULL DEFAULT 0;
  `,
  // 16: the dashboard's counts of what the proxy did (proxy/dashboard/ops-counts.ts): challenges,
  // refusals, declines, upstream answers and time buckets, per campaign and hour, never per person.
  `
  CREATE TABLE ops_counts (
    campaign TEXT NOT NULL,
    hour INTEGER NOT NULL,
    kind TEXT NOT NULL,
    label TEXT NOT NULL,
    count BIGINT NOT NULL,
    PRIMARY KEY (campaign, hour, kind, label)
  );
  CREATE INDEX ops_counts_hour ON ops_counts (hour);
  `,
  // 17: the language a consent's disclosure was shown in (widget/i18n), kept beside its text.
  `
  ALTER TABLE consent_records ADD COLUMN consent_locale TEXT;
  `,
  // 18: the form session a donation came from (its card token's), so a Pending gift that settles
  // later is counted in the dashboard's funnel as a thank-you or a decline (proxy/dashboard).
  `
  ALTER TABLE donation_attempts ADD COLUMN form_session text;
  `,
  // 19: the dashboard's saved forms (contract/saved-forms.ts), every version with who saved it and when.
  `
  CREATE TABLE saved_forms (
    name TEXT NOT NULL,
    version INTEGER NOT NULL,
    campaign TEXT NOT NULL,
    design TEXT NOT NULL,
    author TEXT NOT NULL,
    saved_at BIGINT NOT NULL,
    PRIMARY KEY (name, version)
  );
  `,
];
/** The schema version this code writes. */
export const POSTGRES_SCHEMA_VERSION = MIGRATIONS.length;

/** Brings the database to POSTGRES_SCHEMA_VERSION; refuses one that is newer. */
export async function migratePostgres(client: ClientBase): Promise<void> {
  await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK.toString()]);
  try {
    await client.query("CREATE TABLE IF NOT EXISTS givekit_schema (version integer NOT NULL)");
    const { rows } = await client.query<{ version: number }>("SELECT version FROM givekit_schema");
    const found = rows[0]?.version ?? 0;
    if (found > POSTGRES_SCHEMA_VERSION) throw new SchemaTooNewError(found, POSTGRES_SCHEMA_VERSION);
    for (let version = found + 1; version <= POSTGRES_SCHEMA_VERSION; version++) {
      await client.query("BEGIN");
      try {
        await client.query(MIGRATIONS[version - 1]!);
        await client.query("DELETE FROM givekit_schema");
        await client.query("INSERT INTO givekit_schema (version) VALUES ($1)", [version]);
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw error;
      }
    }
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK.toString()]);
  }
}
