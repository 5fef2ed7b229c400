/**
 * The idempotency protocol's one decision, shared by both adapters: given the record a key
 * already has (if any), what claiming it means now.
 */
import { randomBytes } from "node:crypto";
import type { AttemptState } from "./types";

/** A key's record as both adapters read it. */
export interface KeyRow {
  fingerprint: string;
  state: "in_flight" | "done";
  reference: string | null;
  created_at: number;
  lease_until: number | null;
  /** The state of the attempt the key names, if any. */
  attempt_state: AttemptState | null;
}

export type ClaimDecision =
  /** No usable record: claim it (a record past retention is replaced). */
  | "claim"
  | "mismatch"
  | "replay"
  | "in_flight"
  /** Its proxy died after recording the attempt: the attempt becomes unknown, then replays. */
  | "expire_attempt"
  /** Its proxy died before sending anything: the key is free again. */
  | "take_over";

/**
 * @example
 * decideClaim(undefined, "fp", Date.now(), 86_400_000); // "claim"
 */
export function decideClaim(
  row: KeyRow | undefined,
  fingerprint: string,
  now: number,
  retentionMs: number,
): ClaimDecision {
  if (!row) return "claim";
  if (row.state === "done" && row.created_at < now - retentionMs) return "claim";
  if (row.fingerprint !== fingerprint) return "mismatch";
  if (row.state === "done") return "replay";
  if ((row.lease_until ?? 0) > now) return "in_flight";
  return row.reference && row.attempt_state ? "expire_attempt" : "take_over";
}

/** A claim's random token. */
export function newClaimToken(): string {
  return randomBytes(12).toString("hex");
}
