import type { DonationRequest } from "../../../contract/api";
import { UNREACHABLE, type WidgetErrorCode } from "../../../contract/errors";
import { readUtm } from "../../../contract/utm";
import type { ApiClient } from "../../shared/api-client";
import type { DonateProps } from "../base/attributes";
import { fieldAt } from "../base/field-paths";
import type { FieldProblems } from "../base/fields";
import type { DonateFailure, SubmitResult } from "../base/status";
import type { CardPort } from "../card/card-port";
import { refusedPaths, type ExtraRules } from "../check/request-check";
import type { DonorModel } from "../donor/donor";
import type { GiftModel } from "../gift/gift";
import type { DedicationModel } from "../options/dedication-model";
import type { PeerModel } from "../peers/peers";
import { createAttempt, type DonateForm } from "./attempt";

/** How the form tells a refused attempt, by its code (the key of its words in the catalog). */
export type Failures = Partial<Record<WidgetErrorCode, DonateFailure>>;

/** The refusals an attempt can meet; any other is "failed". */
const FAILURES: Failures = {
  card_declined: "declined",
  payment_failed: "paymentFailed",
  rate_limited: "rateLimited",
  too_many_declines: "tooManyDeclines",
  upstream_unavailable: "upstreamDown",
  upstream_auth_failed: "upstreamDown",
  [UNREACHABLE]: "networkError",
  request_in_progress: "inProgress",
  invalid_peer: "invalidPeer",
};

/** The parts of the form a donation is made of (DonationModel's, the rest's once they have come). */
export interface SendParts {
  api: ApiClient;
  props: DonateProps;
  /** The host page's query string: its `utm_*` tags go with the attempt to the proxy. */
  search: string;
  gift: GiftModel;
  peers: PeerModel;
  donor: DonorModel;
  dedication: DedicationModel | null;
  /** The card frame's port, and what the frame has said of the card. */
  cardPort: CardPort;
  form: DonateForm;
  /** The form's table of failures (createFormState's), which this completes with an attempt's. */
  failures: Failures;
  /** The rules the extras the form turned on brought (the phone's, a dedication's). */
  rules: ExtraRules;
  /** The first step's own problems (the amount, a fundraiser still looked up), known before the rest came. */
  giftProblems(): FieldProblems;
}

/**
 * The donation as the form would send it now, its check, and its attempt (attempt.ts): the
 * submit path of the form, which comes with the rest of it (later.ts) since the first step needs
 * none of it. Made once per form, when the rest has come.
 *
 * @example
 * const sending = createSend(parts);
 * sending.problems();    // { email: "required", … } while the donor's step is empty
 * await sending.send();  // checked, then a card token and one Idempotency-Key per attempt
 */
export function createSend(parts: SendParts) {
  const { props, gift, peers, donor, dedication, cardPort: card, form } = parts;
  /** The landing page's campaign tags, kept by the proxy with the attempt (never sent upstream). */
  const utm = readUtm(new URLSearchParams(parts.search));
  const hasUtm = Object.keys(utm).length > 0;
  const attempt = createAttempt({ api: parts.api, card, form });
  Object.assign(parts.failures, FAILURES);

  function request(): Omit<DonationRequest, "credit_card_token"> {
    return {
      ...props.target,
      ...(hasUtm && { utm }),
      ...gift.request(),
      ...donor.request(),
      ...dedication?.request(),
      ...peers.request(),
      ...(props.formId && { form_id: props.formId }),
      // Absent unless the element names one: JSON leaves an undefined out.
      source: props.source,
    };
  }

  /** Every problem the donor can fix before anything leaves the browser. */
  function problems(sent = request()): FieldProblems {
    const found: FieldProblems = {};
    // The contract's rules for the whole request (request-check.ts).
    for (const path of refusedPaths(sent, parts.rules)) {
      const field = fieldAt(path);
      if (field) found[field] = "invalid";
    }
    // The first step's own words, then what the donor must still fill in.
    Object.assign(found, parts.giftProblems(), donor.problems(), dedication?.problems(sent.memo));
    // The frame's latest card state may still be on its way (a key typed just before Enter):
    // alone, an incomplete card is left to the frame, which checks it again when asked for a token.
    if (!card.complete.value && Object.keys(found).length > 0) found.card = "required";
    return found;
  }

  return {
    problems: () => problems(),
    attempt,

    /**
     * Checks the gift, then hands it to the attempt: a card token and one Idempotency-Key per
     * attempt, and a retry after an answer that decided nothing sends the very same request
     * again, so it can never charge twice. A gift refused here is answered at once, not later.
     */
    send(): SubmitResult | Promise<SubmitResult> {
      const sent = request();
      const refused = problems(sent);
      if (Object.keys(refused).length > 0) return form.fail(refused, "validation_failed");
      form.start();
      return attempt.send({
        request: sent,
        fingerprint: JSON.stringify([sent, card.revision.value]),
        totalCents: gift.totalCents.value ?? 0,
        frequency: gift.frequency.value,
      });
    },

    /** Back to an empty card, the first amount and no message for the next gift: a new attempt (key and card token). */
    reset() {
      attempt.forget();
      card.reset();
      form.status.value = { kind: "editing" };
      form.errors.value = {};
      gift.reset();
      donor.memo.value = "";
      dedication?.reset();
    },
  };
}
export type Send = ReturnType<typeof createSend>;
