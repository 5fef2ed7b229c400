import { batch, signal } from "@preact/signals-core";
import type { CampaignResponse } from "../../contract/api";
import { UNREACHABLE } from "../../contract/errors";
import type { ApiClient } from "../shared/api-client";
import { createFormState } from "../shared/form-state";
import { messagesFor } from "../i18n";
import { DONATE_FIELDS, STEPS, type DonateField, type FieldProblem, type FieldProblems } from "./base/fields";
import type { DonateEnd, DonateFailure, LoadState, SubmitResult } from "./base/status";
import type { DonateProps } from "./base/attributes";
import type { CardPort } from "./card/card-port";
import type { Failures, Send } from "./outcome/send";
import { fetchCampaign } from "./campaign/campaign";
import type { DedicationModel } from "./options/dedication-model";
import type { DonorModel } from "./donor/donor";
import { createGiftModel } from "./gift/gift";
import { extrasFor, loadLater, type Later } from "./load-later";
import { createPeerModel } from "./peers/peers";

export interface DonationModelDeps {
  api: ApiClient;
  props: DonateProps;
  /** The host page's query string, for ?fundraiser= and ?team=. */
  search?: string;
  /** The campaign's settings when they are here already (a saved form's came with its design): not asked again. */
  loaded?: CampaignResponse;
}

/**
 * The donation form's state and actions, as signals, composed of its parts' models: the gift
 * (`model.gift`, gift/gift.ts), the fundraiser credited (`model.peers`, peers/peers.ts), the
 * donor and the options, and the card, which come with the rest of the form (`model.rest`:
 * donor/donor.ts, options/dedication-model.ts, card/card-port.ts), and the donation sent
 * (outcome/send.ts and its attempt, kept inside, also with the rest), with the steps. Created
 * once per element.
 *
 * @example
 * const model = createDonationModel({ api, props });
 * await model.load();
 * model.chooseAmount(5000);
 * model.gift.coverFee.value = true;   // model.gift.totalCents.value === 5150 at a 3 % fee rate
 * await model.submit();
 */
export function createDonationModel({ api, props, search = "", loaded: given }: DonationModelDeps) {
  /** What the form needs after its first step (later.ts), once it has arrived. */
  let later: Later | null = null;
  /** The models of the steps after the gift's, made once the rest of the form and its words are here. */
  const restModels = signal<{
    donor: DonorModel;
    dedication: DedicationModel | null;
    cardPort: CardPort;
  } | null>(null);
  let cardPort: CardPort | null = null;
  /** The donor's fields and the options, and a dedication, made with later.ts too (their steps come with it). */
  let donor: DonorModel | null = null;
  let dedication: DedicationModel | null = null;
  /** The request, its check and the attempt (outcome/send.ts), made with later.ts too. */
  let sending: Send | null = null;
  const loadState = signal<LoadState>("loading");
  const campaign = signal<CampaignResponse | null>(null);
  const gift = createGiftModel(props, campaign);
  const peers = createPeerModel({ api, props, search, campaign });
  /**
   * How a refused attempt is told, by its code: before the rest of the form has come only the
   * connection can fail one; the attempt's own come with it (outcome/send.ts adds them).
   */
  const failures: Failures = { [UNREACHABLE]: "networkError" };
  const form = createFormState<DonateField, FieldProblem, DonateFailure, DonateEnd>(
    DONATE_FIELDS,
    failures,
    "failed",
  );
  /** The first step's own problems, which need nothing of later.ts. */
  const giftProblems = (): FieldProblems => {
    const amount = gift.problem();
    return { ...(amount && { amount }), ...(peers.waiting() && { peer: "invalid" }) };
  };
  /**
   * Where the thank-you leads: `success-url` if the campaign says the proxy allows its origin
   * (or it is the page's), checked with later.ts once both it and the campaign are here.
   */
  let successUrl: string | null | undefined;
  const leadsTo = () => {
    if (successUrl === undefined)
      successUrl = later!.allowedSuccessUrl(props.successUrl, campaign.peek()!.allowed_origins);
    return successUrl;
  };
  const fetchLater = async () => {
    const module = later ?? (await loadLater(props.locale, extrasFor(props)));
    // The card as the frame tells it, and the frame's port: both come with later.ts.
    cardPort ??= module.createCardPort(props.proxyUrl);
    // The SMS disclosure as the form shows it, word for word (sent with a ticked SMS box).
    donor ??= module.createDonorModel(props.fields, () => ({
      text: module.smsConsentText(messagesFor(props.locale), props.programName),
      locale: props.locale,
    }));
    // Its extra comes only to a form that asks for a dedication.
    dedication ??= module.createDedicationModel?.() ?? null;
    sending ??= module.createSend({
      api,
      props,
      search,
      gift,
      peers,
      donor,
      dedication,
      cardPort,
      form,
      failures,
      rules: module,
      giftProblems,
    });
    later = module;
    if (campaign.peek()) leadsTo();
    restModels.value = { donor, dedication, cardPort };
    return module;
  };
  // The rest of the form (later.ts) starts loading now, while the donor chooses a gift.
  void fetchLater().catch(() => undefined);
  /** The step shown (layout="steps"); the single page shows them all. */
  const step = signal(0);
  let checkingStep = false;

  /** Forgets a field's problem once the donor changes it. */
  const clearError = (field: DonateField) => form.recheck(field);
  const { attempt: refusals, ...formState } = form;
  return {
    ...formState,
    /** Bumped at each refused Donate or Next, so the live region reads the same words again. */
    refusals,
    gift,
    peers,
    /**
     * The donor's fields and options, a dedication's state (a form that asks for one) and the card
     * frame's port: there once the rest of the form is (with their steps), null before.
     */
    rest: restModels,
    props,
    step,
    loadState,
    campaign,

    /**
     * Fetches the campaign's public settings; the form shows once they are known. On one page it
     * shows whole, so once the rest of the form (later.ts) is here too, or could not come (Donate
     * then fetches it again).
     */
    async load(): Promise<LoadState> {
      const whole = props.layout === "single" ? fetchLater().catch(() => null) : null;
      const [loaded] = await Promise.all([given ?? fetchCampaign(api, props.target), whole]);
      if (!loaded) {
        loadState.value = "unavailable";
        return "unavailable";
      }
      batch(() => {
        campaign.value = loaded;
        gift.fitFrequency();
        loadState.value = "ready";
      });
      // A success-url the form will not follow is named as soon as it can be, not after a gift.
      if (later) leadsTo();
      await peers.preselect(loaded);
      return "ready";
    },

    chooseAmount(choice: number | "other") {
      gift.amountChoice.value = choice;
      gift.armPrompt();
      clearError("amount");
    },

    /** The donor's own amount, as typed. */
    typeAmount(value: string) {
      gift.otherAmount.value = value;
      gift.armPrompt();
      clearError("amount");
    },

    clearError,

    /** Sets one of the form's values; `field` names the problem it may clear. */
    set<T>(target: { value: T }, value: T, field?: DonateField) {
      target.value = value;
      if (field) clearError(field);
    },

    choosePeer(choice: Parameters<typeof peers.pick>[0]) {
      peers.pick(choice);
      clearError("peer");
    },

    /**
     * Checks the step shown, before the last (as Donate would check its fields), and moves to the
     * next one, or stays with its problems marked. A second press while it checks is ignored.
     */
    async next(): Promise<SubmitResult | { kind: "next" }> {
      const from = step.peek();
      if (checkingStep) return { kind: "busy" };
      checkingStep = true;
      // The next step's fields, and the request's check, come with later.ts: here by now, as a rule.
      const rest = await fetchLater().catch(() => null);
      const problems = rest ? sending!.problems() : giftProblems();
      checkingStep = false;
      const mine: FieldProblems = {};
      for (const field of STEPS[from]!) if (problems[field]) mine[field] = problems[field];
      // Back was pressed meanwhile: this step is no longer shown.
      if (step.peek() !== from) return { kind: "busy" };
      if (Object.keys(mine).length > 0) return form.fail(mine, "validation_failed");
      if (!rest) return form.fail({}, UNREACHABLE);
      batch(() => {
        form.errors.value = {};
        // A Next that failed before (the rest of the form not loaded) is behind the donor now.
        if (form.status.peek().kind === "failed") form.status.value = { kind: "editing" };
        step.value = from + 1;
      });
      return { kind: "next" };
    },

    /**
     * Checks the gift, then sends it (outcome/send.ts): a card token and one Idempotency-Key per
     * attempt, and a retry after an answer that decided nothing sends the very same request
     * again, so it can never charge twice.
     */
    async submit(): Promise<SubmitResult> {
      if (form.busy.peek()) return { kind: "busy" };
      // The rest of the form, here by now as a rule (the attempt comes with it). On one page whose
      // rest could not load as it opened: fetched now, its fields (the donor's, empty) then checked
      // as any are. Not loaded (offline): nothing is sent, and the next Donate tries again.
      try {
        await fetchLater();
      } catch {
        return form.fail({}, UNREACHABLE);
      }
      // Two clicks while it loaded: the first starts the attempt, the second finds it busy.
      if (form.busy.peek()) return { kind: "busy" };
      return sending!.send();
    },

    /** The GA4 purchase for `window.dataLayer` (`data-layer`), its extra fetched with the rest of the form. */
    pushPurchase: (...purchase: Parameters<NonNullable<Later["pushPurchase"]>>) =>
      later?.pushPurchase?.(...purchase),

    /** The page the donor goes to after the thank-you, if any (and allowed). */
    successUrl: leadsTo,

    /** Follows a Pending donation up (model/attempt.ts); null if there is none. */
    follow: async () => sending?.attempt.follow() ?? null,
    /** Stops following a Pending donation up (the element is gone). */
    stopFollowing: () => sending?.attempt.stopFollowing(),

    /** Back to an empty card and the first amount after a completed donation. */
    reset() {
      batch(() => {
        // Only a donation sent ends, and it came with the rest of the form (outcome/send.ts).
        sending?.reset();
        step.value = 0;
      });
    },
  };
}
export type DonationModel = ReturnType<typeof createDonationModel>;
