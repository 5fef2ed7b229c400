import { batch } from "@preact/signals-core";
import type { DonationRequest } from "../../../contract/api";
import { UNREACHABLE, type ErrorCode } from "../../../contract/errors";
import { toCents } from "../../../contract/money";
import type { ApiClient } from "../../shared/api-client";
import type { createFormState } from "../../shared/form-state";
import type { Frequency } from "../base/attributes";
import type { TokenResult } from "../card/card-port";
import { fieldAt } from "../base/field-paths";
import type { DonateField, FieldProblem } from "../base/fields";
import type { DonateEnd, DonateFailure, FinalStatus, PendingCheck, SubmitResult } from "../base/status";
import { readDonation, readDonationStatus } from "./donation-responses";

/** A Pending donation is first looked up after this long, then after twice as long each time… */
export const FOLLOW_FIRST_MS = 2000;
/** …up to this gap: a donor learns the truth within half a minute, and a waiting tab costs little. */
export const FOLLOW_MAX_MS = 30_000;
/**
 * …for at most this long. The proxy resolves every Pending within its settle window (15 minutes
 * by default) and one reconcile pass (1 minute); past that, the donor is told to get in touch.
 */
export const FOLLOW_FOR_MS = 20 * 60_000;

/**
 * A card held by the proxy's open circuit breaker (429 rate_limited, from the frame's
 * tokenization or the donation: nothing was sent) is sent again by itself when the proxy's
 * Retry-After says (the time left in the breaker's open period; a moment when the proxy lets a
 * card that came back through, proxy/defence/breaker.ts's COME_BACK_AFTER_MS), but never sooner
 * than this (the wait the first time when the answer says none)…
 */
export const BREAKER_FIRST_RETRY_MS = 2000;
/** …nor later than this (the wait each later time when the answer says none)… */
export const BREAKER_RETRY_MS = 15_000;
/** …for this long at most; then the donor is told to try again in a minute, or off Wi-Fi. */
export const BREAKER_PATIENCE_MS = 180_000;

/**
 * How long a held card waits before it is sent again, having waited `waitedMs` so far: the answer's
 * Retry-After within BREAKER_FIRST_RETRY_MS and BREAKER_RETRY_MS; null once that would pass
 * BREAKER_PATIENCE_MS.
 *
 * @example
 * breakerWait(0, 2); // 2000
 * breakerWait(2000, 4); // 4000: the breaker's open period ends then
 * breakerWait(2000, 30); // 15000
 * breakerWait(178_000, 4); // null: the donor is told
 */
export function breakerWait(waitedMs: number, retryAfterS?: number): number | null {
  const asked =
    retryAfterS === undefined
      ? waitedMs === 0
        ? BREAKER_FIRST_RETRY_MS
        : BREAKER_RETRY_MS
      : retryAfterS * 1000;
  const wait = Math.min(BREAKER_RETRY_MS, Math.max(BREAKER_FIRST_RETRY_MS, asked));
  return waitedMs + wait > BREAKER_PATIENCE_MS ? null : wait;
}

/** After these (and after no answer at all) the same Idempotency-Key and card token are sent again: nothing was decided. */
const RETRY_SAME_KEY = new Set<ErrorCode>(["upstream_unavailable", "request_in_progress"]);

/** The card frame as an attempt needs it (createCardPort gives one). */
export interface CardTokens {
  tokenize(): Promise<TokenResult>;
  reset(): void;
}

/** The form state an attempt reports to (DonationModel's). */
export type DonateForm = ReturnType<
  typeof createFormState<DonateField, FieldProblem, DonateFailure, DonateEnd>
>;

/** What is sent, and what the thank-you says of it. */
export interface Gift {
  request: Omit<DonationRequest, "credit_card_token">;
  /** The request and the card's revision: an attempt is repeated only for the very same gift. */
  fingerprint: string;
  totalCents: number;
  frequency: Frequency;
}

/**
 * One donation's way to the proxy and back: a card token and an Idempotency-Key per attempt, kept
 * for a retry of the very same gift after an answer that decided nothing (so it can never charge
 * twice), the answer read into the form's status, and a Pending one followed up until it is known.
 *
 * @example
 * const attempt = createAttempt({ api, card, form });
 * form.start();
 * await attempt.send({ request, fingerprint, totalCents: 2500, frequency: "once" });
 */
export function createAttempt({ api, card, form }: { api: ApiClient; card: CardTokens; form: DonateForm }) {
  const { status } = form;
  /** The attempt a retry must repeat: same key, same token, same body. */
  let retained: { key: string; token: string; fingerprint: string } | null = null;
  /** Bumped to stop the follow-up of a Pending donation (the element removed, or a new one begun). */
  let followSeq = 0;
  let followTimer: ReturnType<typeof setTimeout> | undefined;

  return {
    /** Tokenizes the card (unless repeating the same gift) and posts it; the form is started. */
    async send(gift: Gift): Promise<SubmitResult> {
      let current = retained?.fingerprint === gift.fingerprint ? retained : null;
      let result: Awaited<ReturnType<ApiClient["post"]>>;
      let waitedMs = 0;
      // Held by an open breaker: "Checking…", then the very same request again (nothing was sent).
      const waited = async (retryAfterS: number | undefined) => {
        const wait = breakerWait(waitedMs, retryAfterS);
        if (wait === null) return false;
        waitedMs += wait;
        status.value = { kind: "submitting", checking: true };
        await new Promise((resolve) => setTimeout(resolve, wait));
        return true;
      };
      // A card token the proxy wants made again (held too long, or made before scrutiny rose) is
      // made once more by the frame, which meets the proxy's challenge there.
      for (let round = 0; ;) {
        if (!current) {
          const token = await card.tokenize();
          if (!token.ok && token.code === "rate_limited" && (await waited(token.retryAfterS))) continue;
          if (!token.ok)
            return form.fail(token.code === "validation_failed" ? { card: "invalid" } : {}, token.code);
          current = { key: crypto.randomUUID(), token: token.token, fingerprint: gift.fingerprint };
        }
        retained = current;
        result = await api.post<unknown>(
          "/v1/donations",
          { ...gift.request, credit_card_token: current.token },
          { "Idempotency-Key": current.key },
        );
        if (
          result.kind === "problem" &&
          result.problem.code === "rate_limited" &&
          (await waited(result.retryAfterS))
        )
          continue;
        if (round++ > 0 || result.kind !== "problem" || result.problem.code !== "card_check_required") break;
        current = null;
      }
      if (result.kind === "ok") {
        retained = null;
        const parsed = readDonation(result.data);
        if (!parsed) return form.fail({}, "upstream_error");
        const donation = parsed.donation;
        card.reset();
        const end: DonateEnd =
          donation.status === "Success"
            ? {
                kind: "success",
                totalCents: toCents(donation.amount),
                frequency: gift.frequency,
                transactionId: donation.transaction_id,
              }
            : {
                kind: "pending",
                totalCents: gift.totalCents,
                frequency: gift.frequency,
                reference: donation.reference,
                check: "asking",
              };
        status.value = end;
        return { kind: end.kind };
      }

      // Nothing was decided: the retry sends the very same request.
      if (result.kind === "unreachable") return form.fail({}, UNREACHABLE);
      const { code } = result.problem;
      if (!RETRY_SAME_KEY.has(code)) retained = null;
      const refused = form.serverProblems(result.problem, fieldAt, (field) =>
        field === "amount" ? "range" : "invalid",
      );
      if (code === "invalid_peer") refused.peer = "invalid";
      return form.fail(refused, code);
    },

    /**
     * Asks the proxy what became of the Pending donation, FOLLOW_FIRST_MS after the answer and
     * then backing off (FOLLOW_MAX_MS, for FOLLOW_FOR_MS at most), until it is known: Success
     * shows the thanks, NotCharged brings the form back as the donor left it (a new key and card
     * token next time). A 429, a 5xx or no answer at all is asked again later; a 404 stops.
     * Resolves with the final status, or null once it stops without one.
     */
    async follow(): Promise<FinalStatus | null> {
      const pending = status.peek();
      if (pending.kind !== "pending") return null;
      const seq = ++followSeq;
      const until = Date.now() + FOLLOW_FOR_MS;
      const stop = (check: PendingCheck) => {
        status.value = { ...pending, check };
        return null;
      };
      for (let delay = FOLLOW_FIRST_MS; ; delay = Math.min(delay * 2, FOLLOW_MAX_MS)) {
        if (Date.now() + delay > until) return stop("gaveUp");
        await new Promise((resolve) => (followTimer = setTimeout(resolve, delay)));
        const result = await api.get<unknown>(`/v1/donations/${encodeURIComponent(pending.reference)}`);
        if (seq !== followSeq) return null;
        if (result.kind === "problem" && result.problem.code === "not_found") return stop("notFound");
        const found = result.kind === "ok" ? readDonationStatus(result.data)?.donation : null;
        if (found?.status === "Success") {
          status.value = {
            kind: "success",
            totalCents: pending.totalCents,
            frequency: pending.frequency,
            transactionId: found.transaction_id ?? "",
          };
          return "Success";
        }
        if (found?.status === "NotCharged") {
          batch(() => {
            status.value = { kind: "failed", failure: "notCharged", code: "payment_failed" };
            form.attempt.value += 1;
          });
          return "NotCharged";
        }
      }
    },

    /** Stops following a Pending donation up (the element is gone). */
    stopFollowing() {
      followSeq++;
      clearTimeout(followTimer);
    },

    /** Forgets the attempt kept for a retry: the next gift is a new one (a new key and card token). */
    forget() {
      retained = null;
    },
  };
}
export type Attempt = ReturnType<typeof createAttempt>;
