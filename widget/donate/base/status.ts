import type { FormStatus, SubmitResult as FormResult } from "../../shared/form-state";
import type { Frequency } from "./attributes";
import type { DonateField } from "./fields";

export type DonateFailure =
  | "declined"
  | "paymentFailed"
  | "rateLimited"
  | "tooManyDeclines"
  | "upstreamDown"
  | "networkError"
  | "inProgress"
  | "invalidPeer"
  | "notCharged"
  | "failed";

/**
 * A Pending donation's follow-up: still asking the proxy, the proxy no longer knows the
 * reference (404), or FOLLOW_FOR_MS went by without an answer.
 */
export type PendingCheck = "asking" | "notFound" | "gaveUp";

/** How a donation ended: charged, or unknown (the upstream may have charged) while it is followed up. */
export type DonateEnd =
  | { kind: "success"; totalCents: number; frequency: Frequency; transactionId: string }
  | { kind: "pending"; totalCents: number; frequency: Frequency; reference: string; check: PendingCheck };

/** What a followed-up Pending donation came to, as `givekit:donation` names it. */
export type FinalStatus = "Success" | "NotCharged";

export type DonateStatus = FormStatus<DonateFailure, DonateEnd>;

export type SubmitResult = FormResult<DonateField, DonateEnd["kind"]>;

export type LoadState = "loading" | "ready" | "unavailable";
