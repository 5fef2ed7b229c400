/**
 * What the proxy keeps and how: its data folder (SQLite) or PostgreSQL, the key that fingerprints
 * bodies, how long idempotency keys are kept and how long a claim on one holds.
 */
import * as z from "zod/mini";
import type { UpstreamVariables } from "./upstream";
import { absolute, ConfigError, Required, whole } from "./values";

/** The idempotency window may be longer than this, never shorter (Stripe and the IETF draft keep ≥ 24 h). */
export const MIN_IDEMPOTENCY_RETENTION_H = 24;
/** What a claim's lease adds to the longest upstream call, by default, in seconds. */
export const LEASE_MARGIN_S = 5;

export interface StoreConfig {
  dataDir: string;
  /** PostgreSQL connection URL (DATABASE_URL); null: the SQLite store in dataDir. */
  databaseUrl: string | null;
  /** Most connections to PostgreSQL per proxy. */
  dbPoolMax: number;
  /** How long a claim on an idempotency key holds without its proxy finishing it, in seconds. */
  claimLeaseS: number;
  /** Key of the body fingerprint HMAC; null means "generate one and keep it in the data dir". */
  signingSecret: string | null;
  idempotencyRetentionH: number;
  /** GIVEKIT_STORE_START_WAIT_S: how long a starting proxy retries a database it cannot reach. */
  storeStartWaitS: number;
}

/** Each variable's default ("" = required or optional without one). */
export const STORE_DEFAULTS = {
  GIVEKIT_DATA_DIR: "./data",
  DATABASE_URL: "",
  GIVEKIT_DB_POOL_MAX: "10",
  GIVEKIT_CLAIM_LEASE_S: "",
  GIVEKIT_SIGNING_SECRET: "",
  GIVEKIT_IDEMPOTENCY_RETENTION_H: "24",
  GIVEKIT_STORE_START_WAIT_S: "60",
} as const;

/** Never echoed in an error message. */
export const STORE_SECRETS = ["GIVEKIT_SIGNING_SECRET", "DATABASE_URL"] as const;

const PostgresUrl = z.string().check(
  z.refine((value) => {
    if (value === "") return true;
    try {
      const url = new URL(value);
      return (url.protocol === "postgres:" || url.protocol === "postgresql:") && url.hostname !== "";
    } catch {
      return false;
    }
  }, "must be a URL such as postgres://user:password@host:5432/database"),
);

export const StoreVariablesSchema = z.object({
  GIVEKIT_DATA_DIR: Required,
  DATABASE_URL: PostgresUrl,
  GIVEKIT_DB_POOL_MAX: whole(1, 1000),
  GIVEKIT_CLAIM_LEASE_S: z.string().check(z.regex(/^(\d{1,4})?$/, "must be a whole number of seconds")),
  GIVEKIT_SIGNING_SECRET: z
    .string()
    .check(
      z.refine((value) => value === "" || value.length >= 32, "must be at least 32 characters when set"),
    ),
  GIVEKIT_IDEMPOTENCY_RETENTION_H: whole(MIN_IDEMPOTENCY_RETENTION_H, 24 * 365),
  GIVEKIT_STORE_START_WAIT_S: whole(0, 3600),
});
export type StoreVariables = z.output<typeof StoreVariablesSchema>;

/** The claim's lease is checked against the upstream's timeouts: it must outlive the longest call. */
export function storeConfig(
  e: StoreVariables & Pick<UpstreamVariables, "UPSTREAM_CONNECT_TIMEOUT_MS" | "UPSTREAM_TIMEOUT_MS">,
): StoreConfig {
  const databaseUrl = e.DATABASE_URL === "" ? null : e.DATABASE_URL;
  if (databaseUrl && e.GIVEKIT_SIGNING_SECRET === "") {
    throw new ConfigError(
      "GIVEKIT_SIGNING_SECRET",
      "is required with DATABASE_URL: every proxy on the database must fingerprint bodies with the same key (at least 32 characters)",
    );
  }
  // A claim must outlive the longest upstream call it guards: connect, then wait for the answer.
  const longestCallS = Math.ceil((e.UPSTREAM_CONNECT_TIMEOUT_MS + e.UPSTREAM_TIMEOUT_MS) / 1000);
  const claimLeaseS =
    e.GIVEKIT_CLAIM_LEASE_S === "" ? longestCallS + LEASE_MARGIN_S : Number(e.GIVEKIT_CLAIM_LEASE_S);
  if (claimLeaseS <= longestCallS) {
    throw new ConfigError(
      "GIVEKIT_CLAIM_LEASE_S",
      `must be longer than UPSTREAM_CONNECT_TIMEOUT_MS + UPSTREAM_TIMEOUT_MS (${longestCallS} s) (got "${claimLeaseS}")`,
    );
  }
  return {
    dataDir: absolute(e.GIVEKIT_DATA_DIR),
    databaseUrl,
    dbPoolMax: e.GIVEKIT_DB_POOL_MAX,
    claimLeaseS,
    signingSecret: e.GIVEKIT_SIGNING_SECRET === "" ? null : e.GIVEKIT_SIGNING_SECRET,
    idempotencyRetentionH: e.GIVEKIT_IDEMPOTENCY_RETENTION_H,
    storeStartWaitS: e.GIVEKIT_STORE_START_WAIT_S,
  };
}
