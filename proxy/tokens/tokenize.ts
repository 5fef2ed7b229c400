/**
 * A card tokenization (POST /v1/payment-tokens, from the card frame only), from the checks to the
 * answer: the card and the campaign it names, the client's card requests, the form session and
 * the honeypot (a bot is answered as a decline), the defence's scrutiny (a challenge), the
 * client's tokenizations; then the upstream's create_payment_token; then {token, brand, last4},
 * and the token remembered for its donation. The card number and CVV live in this request's
 * memory and the upstream call, nowhere else.
 */
import {
  CHALLENGE_FIELD,
  FORM_SESSION_FIELD,
  FormSignalsSchema,
  HONEYPOT_FIELD,
  PaymentTokenRequestSchema,
  TokenCampaignSchema,
  type PaymentTokenResponse,
} from "../../contract/api";
import { cardBrand, cardDigits, parseExpiry } from "../../contract/card";
import { LAST4_PATTERN } from "../../contract/request-patterns";
import { campaignScope, type CampaignDirectory } from "../campaign/directory";
import type { Defence } from "../defence/defence";
import { cardKey } from "../defence/keys";
import type { FormSessions } from "../defence/form-session";
import type { RateLimits } from "../middleware/rate-limit";
import { ProblemError } from "../problem";
import { OPS_KINDS, type OpsCounter } from "../dashboard/ops-counts";
import { proofAskedAt } from "../defence/pow";
import type { UpstreamClient } from "../upstream/client";
import type { FormOutcomes } from "../dashboard/form-outcomes";
import { validate } from "../validate";

function isObject(body: unknown): body is Record<string, unknown> {
  return typeof body === "object" && body !== null && !Array.isArray(body);
}

/**
 * What a filtered bot gets: the very answer of a declined donation (routes/donations.ts), so it
 * cannot tell a filter from a decline, and nothing was sent upstream.
 */
function looksDeclined(): ProblemError {
  return new ProblemError("card_declined", "The card was declined. No money was taken.");
}

/**
 * The answers before the upstream that the widget meets by sending the same card again: a wait at
 * a breaker or a bucket, a challenge. Their tokenization is not one of the form session's uses.
 */
const COMES_BACK = new Set(["rate_limited", "challenge_required"]);

/**
 * The campaign a tokenization names (the card frame sends the one it was opened for), as its
 * defence scope; none named: counted overall only. One not served here is a clear 404.
 */
function tokenCampaign(
  campaigns: Pick<CampaignDirectory, "byKeyword">,
  named: { shortcode: unknown; keyword: unknown },
) {
  if (named.shortcode === undefined && named.keyword === undefined) return undefined;
  const { shortcode, keyword } = validate(TokenCampaignSchema, named);
  if (!shortcode || !keyword) {
    throw new ProblemError("validation_failed", "Name the campaign with both shortcode and keyword.", {
      keyword: ["Name the campaign with both shortcode and keyword."],
    });
  }
  const campaign = campaigns.byKeyword(shortcode, keyword);
  if (!campaign) throw new ProblemError("campaign_not_served", "This campaign is not served here.");
  return campaignScope(campaign);
}

export interface TokenizeDeps {
  upstream: Pick<UpstreamClient, "createPaymentToken">;
  rateLimits: Pick<RateLimits, "admit" | "admitTokenization">;
  formSessions: Pick<FormSessions, "facts" | "check" | "giveBack">;
  /** The challenge before a card reaches the upstream, the signals it counts, the token it remembers. */
  defence: Pick<
    Defence,
    | "holdAtBreakers"
    | "admitTokenization"
    | "recordTokenization"
    | "recordToken"
    | "recordMinted"
    | "releaseCard"
  >;
  campaigns: Pick<CampaignDirectory, "byKeyword">;
  /** Key of the card's keyed hash (the signals' and the form session's). */
  secret: string;
  /** The dashboard's counts: challenges asked and solved (with what solving cost), refusals. */
  ops?: OpsCounter;
  /** The form's steps the proxy saw happen (a gift sent, a stop): the dashboard's funnel. */
  formOutcomes?: Pick<FormOutcomes, "tokenization">;
}

/** One tokenization to run: the parsed body and who sent it. */
export interface TokenizeRun {
  body: unknown;
  ip: string;
  /** Adds fields to the request's log line. */
  log(fields: Record<string, string | number | boolean | null>): void;
}

/**
 * The defence's answer to a card, counted for the dashboard: a challenge asked, one refused, one
 * solved (and how long after it was asked).
 */
async function countChallenge<T extends { proven: number | null }>(
  ops: OpsCounter | undefined,
  campaign: string | undefined,
  proof: unknown,
  admit: () => Promise<T>,
): Promise<T> {
  if (!ops) return admit();
  try {
    const admitted = await admit();
    if (admitted.proven !== null && typeof proof === "string") {
      ops.count(campaign, OPS_KINDS.challengeSolved);
      const askedAt = proofAskedAt(proof);
      if (askedAt !== null) ops.time(campaign, OPS_KINDS.solveMs, Math.max(0, Date.now() - askedAt));
    }
    return admitted;
  } catch (error) {
    if (error instanceof ProblemError)
      ops.count(
        campaign,
        error.code === "challenge_required" ? OPS_KINDS.challengeAsked : OPS_KINDS.refused,
        error.code === "challenge_required" ? "" : error.code,
      );
    throw error;
  }
}

/**
 * @example
 * return c.json(await runTokenization(deps, { body: c.get("body"), ip: c.get("clientIp"), log }), 201);
 */
export async function runTokenization(deps: TokenizeDeps, run: TokenizeRun): Promise<PaymentTokenResponse> {
  const { body, ip, log } = run;
  const {
    [HONEYPOT_FIELD]: honeypot,
    [FORM_SESSION_FIELD]: formSession,
    [CHALLENGE_FIELD]: proof,
    shortcode,
    keyword,
    origin,
    ...rest
  } = isObject(body) ? body : {};
  const card = validate(PaymentTokenRequestSchema, isObject(body) ? rest : body);
  const campaign = tokenCampaign(deps.campaigns, { shortcode, keyword });
  const signals = FormSignalsSchema.safeParse({
    [HONEYPOT_FIELD]: honeypot,
    [FORM_SESSION_FIELD]: formSession,
  });
  const digits = cardDigits(card.card_number);
  const key = cardKey(deps.secret, digits);
  const session = signals.success ? deps.formSessions.facts(signals.data[FORM_SESSION_FIELD], ip) : null;
  // A session minted for one campaign, or for one page, carries no card for another.
  if (
    (session?.campaign && campaign && session.campaign !== campaign) ||
    (session?.origin && origin !== session.origin)
  ) {
    log({ filtered: "form_session_foreign" });
    throw looksDeclined();
  }
  // An open circuit breaker holds the card before its session or its client counts it.
  const bin = digits.slice(0, 6);
  await deps.defence.holdAtBreakers({
    ip,
    campaign: campaign ?? (session?.campaign || undefined),
    proof: typeof proof === "string" ? proof : undefined,
    bin,
    card: key,
    form: session?.id,
  });
  // After the breakers' hold: a tester's cards held there, a form each, never come back and spend
  // nothing of their address's turns, which a venue's guests share.
  await deps.rateLimits.admit("cardRequests", ip);
  // A filled honeypot, or a form session that is missing, forged, too young, spent or blocked, is
  // a bot: refused before the upstream.
  const filter = !signals.success
    ? "form_signals"
    : signals.data[HONEYPOT_FIELD]
      ? "honeypot"
      : await deps.formSessions.check(signals.data[FORM_SESSION_FIELD], key);
  if (filter) {
    log({ filtered: filter });
    deps.ops?.count(campaign ?? (session?.campaign || undefined), OPS_KINDS.refused, filter);
    throw looksDeclined();
  }
  const scope = campaign ?? (session?.campaign || undefined);
  // The session's gift is sent now (its card reached the proxy), and its stop, if it ends in one,
  // is known here: the dashboard counts both from this, never from a beacon.
  const counted = session ? { id: session.id, campaign: session.campaign || scope || "" } : null;
  try {
    const answer = await admitAndMint(deps, { ip, scope, session, proof, bin, key, digits, card, log });
    // Counted beside the answer, not before it (as the ops counts are): a donor never waits on a count.
    if (counted) void deps.formOutcomes?.tokenization(counted).catch(() => undefined);
    return answer;
  } catch (error) {
    if (error instanceof ProblemError && COMES_BACK.has(error.code))
      await deps.formSessions.giveBack(signals.success ? signals.data[FORM_SESSION_FIELD] : undefined);
    if (counted && error instanceof ProblemError)
      void deps.formOutcomes?.tokenization(counted, error.code).catch(() => undefined);
    throw error;
  }
}

/** Past the filters: the challenge and the breakers, the client's turn, the upstream's token. */
async function admitAndMint(
  deps: TokenizeDeps,
  {
    ip,
    scope,
    session,
    proof,
    bin,
    key,
    digits,
    card,
    log,
  }: {
    ip: string;
    scope: string | undefined;
    session: ReturnType<TokenizeDeps["formSessions"]["facts"]>;
    proof: unknown;
    bin: string | undefined;
    key: string;
    digits: string;
    card: { cvv: string; expiration_date: string };
    log: TokenizeRun["log"];
  },
): Promise<PaymentTokenResponse> {
  const { proven, scrutiny, probe, passed, human, returned } = await countChallenge(
    deps.ops,
    scope,
    proof,
    () =>
      deps.defence.admitTokenization({
        ip,
        campaign: scope,
        session,
        proof: typeof proof === "string" ? proof : undefined,
        bin,
        card: key,
      }),
  );
  if (scrutiny) log({ scrutiny: scrutiny.why, proven });
  if (probe.length > 0) log({ breakerProbe: probe.join(" ") });
  try {
    await deps.rateLimits.admitTokenization(ip);
  } catch (error) {
    // Admitted by the breakers, refused before the upstream: the card's reservation there is given back.
    await deps.defence.releaseCard(ip, scope, bin, key);
    throw error;
  }
  await deps.defence.recordTokenization({ digits, key }, scope);
  // The schema accepted the date, so it parses; the upstream takes MM/YYYY.
  const expiry = parseExpiry(card.expiration_date)!;
  const outcome = await deps.upstream.createPaymentToken({
    card_number: digits,
    cvv: card.cvv,
    expiration_date: `${String(expiry.month).padStart(2, "0")}/${expiry.year}`,
  });
  if (outcome.kind === "refused") {
    log({ upstreamStatus: outcome.httpStatus });
    throw new ProblemError("validation_failed", "The card was not accepted. Check its details.", {
      card_number: ["The card was not accepted."],
    });
  }
  await deps.defence.recordToken(outcome.token, {
    mintedAt: Date.now(),
    proven,
    session: session?.id ?? null,
    card: key,
    bin,
    ...(probe.length > 0 ? { probe } : {}),
    ...(passed.length > 0 ? { passed } : {}),
    ...(returned ? { returned } : {}),
    ...(human ? { human } : {}),
  });
  await deps.defence.recordMinted(ip, scope, key);
  return {
    token: outcome.token,
    brand: outcome.brand ?? cardBrand(digits),
    last4: outcome.last4 && LAST4_PATTERN.test(outcome.last4) ? outcome.last4 : digits.slice(-4),
  };
}
