import { batch, computed, signal, type ReadonlySignal, type Signal } from "@preact/signals-core";
import type { Campaign, DonationRequest, Peer } from "../../contract/api";
import { UNREACHABLE, type ErrorCode, type WidgetErrorCode } from "../../contract/errors";
import { feeCents, fromCents, toCents } from "../../contract/money";
import { AMOUNT_PATTERN, MEMO_MAX, PEER_ID_PATTERN } from "../../contract/patterns";
import type { ApiClient } from "../shared/api-client";
import { createFormState, type FormStatus, type SubmitResult as FormResult } from "../shared/form-state";
import type { DonateProps, Frequency, OptionalField } from "./attributes";
import type { TokenResult } from "./card-port";
import { readCampaign, readDonation, readDonationStatus, readPeers } from "./responses";

/**
 * The steps of `layout="steps"`, by the fields each asks: the gift, the donor (and the options
 * turned on), the card. A field's problem takes the donor back to its step.
 */
const STEP_FIELDS = [
  ["frequency", "amount", "peer"],
  ["firstName", "lastName", "email", "phone", "street", "city", "state", "country", "zip", "memo"],
  ["card"],
] as const;
export type DonateField = (typeof STEP_FIELDS)[number][number];
export const STEPS: readonly (readonly DonateField[])[] = STEP_FIELDS;
export const LAST_STEP = STEPS.length - 1;
/** The step that asks for `field`. */
export const stepOf = (field: DonateField) => STEPS.findIndex((fields) => fields.includes(field));

/** The form's fields in the order they appear on one page (the message after the card): the first with an error gets focus. */
export const DONATE_FIELDS: DonateField[] = [...STEPS.flat().filter((field) => field !== "memo"), "memo"];

/**
 * Why a field was refused; the form puts it into words in the donor's language. `missing`: a
 * field the nonprofit made required (`fields="phone:required"`), left empty.
 */
export type FieldProblem = "required" | "missing" | "invalid" | "range" | "smsPhone";
export type FieldProblems = Partial<Record<DonateField, FieldProblem>>;

/** A refused attempt, by what the donor can do about it (the key of its words in the catalog). */
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

export { MEMO_MAX };
/** Wait this long after the last keystroke before searching fundraisers and teams. */
export const PEER_SEARCH_DEBOUNCE_MS = 200;
/** How many characters a donor can type into the amount box ("10,000.00" and then some). */
export const OTHER_AMOUNT_MAX = 12;
/** A Pending donation is first looked up after this long, then after twice as long each time… */
export const FOLLOW_FIRST_MS = 2000;
/** …up to this gap: a donor learns the truth within half a minute, and a waiting tab costs little. */
export const FOLLOW_MAX_MS = 30_000;
/**
 * …for at most this long. The proxy resolves every Pending within its settle window (15 minutes
 * by default) and one reconcile pass (1 minute); past that, the donor is told to get in touch.
 */
export const FOLLOW_FOR_MS = 20 * 60_000;

/** The card frame as the model needs it (createCardPort gives one). */
export interface CardGateway {
  complete: ReadonlySignal<boolean>;
  revision: ReadonlySignal<number>;
  tokenize(): Promise<TokenResult>;
  reset(): void;
}

export interface DonationModelDeps {
  api: ApiClient;
  props: DonateProps;
  card: CardGateway;
  /** The host page's query string, for ?fundraiser= and ?team=. */
  search?: string;
  /** The SMS disclosure as the form shows it, word for word (sent with a ticked SMS box). */
  smsConsentText?: () => string;
}

const FAILURES: Partial<Record<WidgetErrorCode, DonateFailure>> = {
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

/** After these (and after no answer at all) the same Idempotency-Key and card token are sent again: nothing was decided. */
const RETRY_SAME_KEY = new Set<ErrorCode>(["upstream_unavailable", "request_in_progress"]);

/** The request's field paths (those under `donor.` without it) named otherwise in the form. */
const RENAMED: Record<string, DonateField> = {
  recurring_frequency: "frequency",
  peer_fundraiser_id: "peer",
  peer_fundraiser_team_id: "peer",
  credit_card_token: "card",
  donor: "firstName",
  full_name: "firstName",
  first_name: "firstName",
  last_name: "lastName",
  street_address: "street",
  postal_code: "zip",
};
/** The form's field for a path of the request ("donor.email" → "email"), if it has one. */
function fieldAt(path: string): DonateField | undefined {
  const name = path.replace(/^donor\./, "");
  return RENAMED[name] ?? DONATE_FIELDS.find((field) => field === name);
}

/** "$1,250.5 " → "1250.5"; what people type around an amount is not part of it. */
export function parseAmountInput(input: string): number | null {
  const cleaned = input.replace(/[\s$,]/g, "");
  if (!AMOUNT_PATTERN.test(cleaned)) return null;
  const cents = toCents(cleaned);
  return cents > 0 ? cents : null;
}

/** A trimmed optional field: empty is left out. */
const optional = (value: string) => (value.trim() === "" ? undefined : value.trim());

/** A text field left empty (or only spaces). */
const empty = (value: Signal<string>) => value.value.trim() === "";

/** A peer id from the host page's URL, if it is a well-formed one. */
function urlPeer(search: string, name: "fundraiser" | "team"): string | null {
  const value = new URLSearchParams(search).get(name);
  return value && PEER_ID_PATTERN.test(value) ? value : null;
}

function campaignPath(target: DonateProps["target"]): string {
  if (target.shortcode && target.keyword) {
    return `/v1/campaigns/${encodeURIComponent(target.shortcode)}/${encodeURIComponent(target.keyword)}`;
  }
  const params = new URLSearchParams({
    event_id: target.event_id ?? "",
    event_type: target.event_type ?? "",
  });
  return `/v1/campaigns?${params}`;
}

type RefusedPaths = (request: Omit<DonationRequest, "credit_card_token">) => string[];
let requestCheck: Promise<RefusedPaths> | null = null;

/** How long Donate waits for a request check still on its way, before going on without it. */
export const REQUEST_CHECK_WAIT_MS = 5000;

/** request-check.ts, loaded once (tried again after a failed load, at the next Donate). */
function loadRequestCheck(): Promise<RefusedPaths> {
  return (requestCheck ??= import("./request-check").then(
    (module) => module.refusedPaths,
    (error: unknown) => {
      requestCheck = null;
      throw error;
    },
  ));
}

/**
 * The request check, or null when it could not be loaded (some browsers never fetch a module
 * again once it failed) or is still on its way after `wait` ms: the donation then
 * goes without it, and the proxy, which checks the same schema, names any field it refuses.
 */
async function requestCheckIfAny(wait = REQUEST_CHECK_WAIT_MS): Promise<RefusedPaths | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), wait);
  });
  try {
    return await Promise.race([loadRequestCheck(), late]);
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The donation form's state and actions, as signals. Created once per element.
 *
 * @example
 * const model = createDonationModel({ api, props, card });
 * await model.load();
 * model.chooseAmount(5000);
 * model.coverFee.value = true;   // model.totalCents.value === 5150 at a 3 % fee rate
 * await model.submit();
 */
export function createDonationModel({
  api,
  props,
  card,
  search = "",
  smsConsentText = () => "",
}: DonationModelDeps) {
  // The request check (zod and the contract's schema) starts loading now, while the donor fills in the form.
  void loadRequestCheck().catch(() => undefined);
  const loadState = signal<LoadState>("loading");
  const campaign = signal<Campaign | null>(null);

  const frequency = signal<Frequency>(props.defaultFrequency);
  const presetAmount = props.amounts.includes(props.defaultAmount);
  const amountChoice = signal<number | "other">(presetAmount ? props.defaultAmount : "other");
  const otherAmount = signal(presetAmount ? "" : fromCents(props.defaultAmount));
  const coverFee = signal(false);
  const peer = signal<Peer | null>(null);
  const peerResults = signal<Peer[] | null>(null);
  const peerSearching = signal(false);
  /** The picker's search box, and the option its arrow keys are on (-1: none). */
  const peerQuery = signal("");
  const peerActive = signal(-1);

  const firstName = signal("");
  const lastName = signal("");
  const email = signal("");
  const phone = signal("");
  const street = signal("");
  const city = signal("");
  const state = signal("");
  const country = signal("US");
  const zip = signal("");
  const anonymous = signal(false);
  const pledgeWall = signal(false);
  const smsOptIn = signal(false);
  const memo = signal("");
  const on = props.fields;
  /** Whether the form asks for a field: only if the nonprofit turned it on (the SMS opt-in needs the phone). */
  const asks = (field: OptionalField) => field in on || (field === "phone" && "sms" in on);
  /** Whether the donor must fill a field in (`phone:required`); a check box never must. */
  const requires = (field: "phone" | "address" | "memo") => on[field] === true;

  const form = createFormState<DonateField, FieldProblem, DonateFailure, DonateEnd>(
    DONATE_FIELDS,
    FAILURES,
    "failed",
  );
  const { status } = form;
  /** The step shown (layout="steps"); the single page shows them all. */
  const step = signal(0);
  let checkingStep = false;

  const frequencies = computed<Frequency[]>(() => {
    const offered = campaign.value?.recurring_frequencies ?? [];
    const available = props.frequencies.filter((f) => f === "once" || offered.includes(f));
    return available.length > 0 ? available : ["once"];
  });
  const amountCents = computed(() => {
    const choice = amountChoice.value;
    const other = parseAmountInput(otherAmount.value);
    return choice === "other" ? other : choice;
  });
  const feeAmountCents = computed(() => {
    const c = campaign.value;
    const amount = amountCents.value;
    return c && amount !== null ? feeCents(amount, c.fee_rate) : 0;
  });
  const totalCents = computed(() => {
    const amount = amountCents.value;
    const fee = coverFee.value ? feeAmountCents.value : 0;
    return amount === null ? null : amount + fee;
  });
  const usesZip = computed(() => country.value === "US");

  /** The attempt a retry must repeat: same key, same token, same body. */
  let retained: { key: string; token: string; fingerprint: string } | null = null;
  let searchSeq = 0;
  let searchTimer: ReturnType<typeof setTimeout> | undefined;
  /** Bumped to stop the follow-up of a Pending donation (the element removed, or a new one begun). */
  let followSeq = 0;
  let followTimer: ReturnType<typeof setTimeout> | undefined;

  function body(): Omit<DonationRequest, "credit_card_token"> {
    const amount = amountCents.value;
    const selected = peer.value;
    // A field that is off is not sent (undefined is left out), whatever its signal holds.
    const request: Omit<DonationRequest, "credit_card_token"> = {
      ...props.target,
      amount: amount === null ? otherAmount.value : fromCents(amount),
      cover_fee: coverFee.value,
      anonymous: asks("anonymous") ? anonymous.value : undefined,
      pledge_wall: asks("pledge-wall") ? pledgeWall.value : undefined,
      sms_opt_in_accepted: asks("sms") ? smsOptIn.value : undefined,
      sms_consent_text: asks("sms") && smsOptIn.value ? smsConsentText() : undefined,
      memo: asks("memo") ? optional(memo.value) : undefined,
      donor: {
        first_name: firstName.value,
        last_name: lastName.value,
        email: email.value.trim(),
        phone: asks("phone") ? optional(phone.value) : undefined,
        ...(asks("address") && {
          street_address: optional(street.value),
          city: optional(city.value),
          state: optional(state.value),
          country: country.value,
          [usesZip.value ? "zip" : "postal_code"]: optional(zip.value),
        }),
      },
    };
    if (props.formId) request.form_id = props.formId;
    if (frequency.value !== "once") request.recurring_frequency = frequency.value;
    if (selected?.kind === "fundraiser") request.peer_fundraiser_id = selected.id;
    if (selected?.kind === "team") request.peer_fundraiser_team_id = selected.id;
    return request;
  }

  /** Every problem the donor can fix before anything leaves the browser. */
  function validate(
    request: Omit<DonationRequest, "credit_card_token">,
    refused: RefusedPaths | null,
  ): FieldProblems {
    const problems: FieldProblems = {};
    for (const path of refused?.(request) ?? []) {
      const field = fieldAt(path);
      if (field) problems[field] = "invalid";
    }
    const amount = amountCents.value;
    const c = campaign.value;
    if (amount === null) problems.amount = "required";
    else if (c && (amount < toCents(c.min_amount) || amount > toCents(c.max_amount)))
      problems.amount = "range";
    /** Each of `fields` left empty has `problem`. */
    const need = (fields: Record<string, Signal<string>>, problem: FieldProblem) => {
      for (const field in fields) if (empty(fields[field]!)) problems[field as DonateField] = problem;
    };
    // By hand too, for a step checked before the request check has arrived.
    need({ firstName, lastName, email }, "required");
    need(
      {
        ...(requires("phone") && { phone }),
        ...(requires("address") && { street, city, zip }),
        ...(requires("memo") && { memo }),
      },
      "missing",
    );
    if (asks("sms") && smsOptIn.value && empty(phone)) problems.phone = "smsPhone";
    if (asks("memo") && memo.value.length > MEMO_MAX) problems.memo = "invalid";
    // The frame's latest card state may still be on its way (a key typed just before Enter):
    // alone, an incomplete card is left to the frame, which checks it again when asked for a token.
    if (!card.complete.value && Object.keys(problems).length > 0) problems.card = "required";
    return problems;
  }

  /** Forgets a field's problem once the donor changes it. */
  const clearError = (field: DonateField) => form.recheck(field);

  /** Searches the campaign's fundraisers and teams; only the latest answer is kept. */
  async function searchPeers(query: string) {
    const c = campaign.value;
    if (!c) return;
    const seq = ++searchSeq;
    peerSearching.value = true;
    const found = await fetchPeers(c, query.trim());
    if (seq !== searchSeq) return;
    batch(() => {
      peerResults.value = found ?? [];
      peerSearching.value = false;
    });
  }

  async function preselect(c: Campaign) {
    const fundraiser = props.fundraiser ?? (props.team ? null : urlPeer(search, "fundraiser"));
    const team = fundraiser ? null : (props.team ?? urlPeer(search, "team"));
    const id = fundraiser ?? team;
    if (!id || !c.peer_fundraising) return;
    const kind = fundraiser ? "fundraiser" : "team";
    const found = await fetchPeers(c, "");
    const match = found?.find((p) => p.id === id && p.kind === kind);
    if (match) peer.value = match;
    else console.warn(`[givekit] <givekit-donate>: ${kind} "${id}" is not part of this campaign.`);
  }

  async function fetchPeers(c: Campaign, query: string): Promise<Peer[] | null> {
    const path = `/v1/campaigns/${encodeURIComponent(c.shortcode)}/${encodeURIComponent(c.keyword)}/peers`;
    const result = await api.get<unknown>(`${path}?${new URLSearchParams({ q: query })}`);
    return result.kind === "ok" ? readPeers(result.data) : null;
  }

  return {
    ...form,
    props,
    asks,
    requires,
    step,
    loadState,
    campaign,
    frequency,
    frequencies,
    amountChoice,
    otherAmount,
    amountCents,
    coverFee,
    feeAmountCents,
    totalCents,
    peer,
    peerResults,
    peerSearching,
    peerQuery,
    peerActive,
    firstName,
    lastName,
    email,
    phone,
    street,
    city,
    state,
    country,
    zip,
    usesZip,
    anonymous,
    pledgeWall,
    smsOptIn,
    memo,

    /** Fetches the campaign's public settings; the form shows once they are known. */
    async load(): Promise<LoadState> {
      const result = await api.get<unknown>(campaignPath(props.target));
      const loaded = result.kind === "ok" ? readCampaign(result.data) : null;
      if (!loaded) {
        const why =
          result.kind === "ok"
            ? "an unexpected answer"
            : result.kind === "problem"
              ? result.problem.code
              : "the proxy could not be reached";
        console.error(`[givekit] <givekit-donate>: the campaign could not be loaded (${why}).`);
        loadState.value = "unavailable";
        return "unavailable";
      }
      batch(() => {
        campaign.value = loaded;
        if (!frequencies.peek().includes(frequency.peek())) frequency.value = frequencies.peek()[0]!;
        loadState.value = "ready";
      });
      await preselect(loaded);
      return "ready";
    },

    chooseAmount(choice: number | "other") {
      amountChoice.value = choice;
      clearError("amount");
    },

    clearError,

    /** Sets one of the form's values; `field` names the problem it may clear. */
    set<T>(target: Signal<T>, value: T, field?: DonateField) {
      target.value = value;
      if (field) clearError(field);
    },

    /** Searches once the donor pauses typing, so each keystroke does not become a request. */
    queuePeerSearch(query: string) {
      clearTimeout(searchTimer);
      searchTimer = setTimeout(() => void searchPeers(query), PEER_SEARCH_DEBOUNCE_MS);
    },

    closePeerResults() {
      clearTimeout(searchTimer);
      searchSeq++;
      batch(() => {
        peerResults.value = null;
        peerSearching.value = false;
      });
    },
    choosePeer(choice: Peer | null) {
      batch(() => {
        peer.value = choice;
        peerResults.value = null;
      });
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
      // Next waits for no check still on its way: Donate does, and takes the donor back to a field it refuses.
      const problems = validate(body(), await requestCheckIfAny(0));
      checkingStep = false;
      const mine: FieldProblems = {};
      for (const field of STEPS[from]!) if (problems[field]) mine[field] = problems[field];
      // Back was pressed meanwhile: this step is no longer shown.
      if (step.peek() !== from) return { kind: "busy" };
      if (Object.keys(mine).length > 0) return form.fail(mine, "validation_failed");
      batch(() => {
        form.errors.value = {};
        step.value = from + 1;
      });
      return { kind: "next" };
    },

    /**
     * Validates, tokenizes the card through the frame, then posts the donation with one
     * Idempotency-Key per attempt. A retry after a network failure, a 503 or a 409 sends
     * the very same request again (same key, same token), so it can never charge twice.
     */
    async submit(): Promise<SubmitResult> {
      if (form.busy.peek()) return { kind: "busy" };
      // The form as it was when Donate was pressed, whatever the wait below.
      const request = body();
      const fingerprint = JSON.stringify([request, card.revision.value]);
      const total = totalCents.value ?? 0;
      const chosenFrequency = frequency.value;
      const schemaRefuses = await requestCheckIfAny();
      // Two clicks while it loaded: the first starts the attempt, the second finds it busy.
      if (form.busy.peek()) return { kind: "busy" };
      const problems = validate(request, schemaRefuses);
      if (Object.keys(problems).length > 0) return form.fail(problems, "validation_failed");
      form.start();

      let current = retained?.fingerprint === fingerprint ? retained : null;
      if (!current) {
        const token = await card.tokenize();
        if (!token.ok)
          return form.fail(token.code === "validation_failed" ? { card: "invalid" } : {}, token.code);
        current = { key: crypto.randomUUID(), token: token.token, fingerprint };
      }
      retained = current;

      const result = await api.post<unknown>(
        "/v1/donations",
        { ...request, credit_card_token: current.token },
        { "Idempotency-Key": current.key },
      );
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
                frequency: chosenFrequency,
                transactionId: donation.transaction_id,
              }
            : {
                kind: "pending",
                totalCents: total,
                frequency: chosenFrequency,
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

    /** Back to an empty card and the first amount after a completed donation. */
    reset() {
      retained = null;
      card.reset();
      batch(() => {
        status.value = { kind: "editing" };
        form.errors.value = {};
        step.value = 0;
        amountChoice.value = presetAmount ? props.defaultAmount : "other";
        otherAmount.value = presetAmount ? "" : fromCents(props.defaultAmount);
        memo.value = "";
      });
    },
  };
}
export type DonationModel = ReturnType<typeof createDonationModel>;
