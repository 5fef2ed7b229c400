/**
 * givekit's public API (v1), the one the widget and the card frame speak to the proxy.
 * Both ends validate with these same schemas.
 */
import { LEADERBOARD_KINDS } from "./gala";
import * as z from "zod/mini";
import { CardSchema } from "./card";
import { LOCALES } from "./locales";
import { CHALLENGE_FIELD, FORM_SESSION_FIELD, HONEYPOT_FIELD } from "./frame-fields";
import {
  DEDICATION_KINDS,
  DEDICATION_NAME_MAX,
  DEDICATION_NAME_REFUSED,
  memoFits,
  UPSTREAM_MEMO_MAX,
} from "./dedication";
import { PositiveAmountSchema, RateSchema, AmountSchema } from "./money-schemas";
import { FORM_NAME_PATTERN } from "./saved-forms";
import {
  CHANNEL_TAG_EXPECTED,
  CHANNEL_TAG_PATTERN,
  CITY_MAX,
  CONSENT_TEXT_MAX,
  CONSENT_TEXT_MIN,
  CURRENCY_PATTERN,
  FULL_NAME_MAX,
  NAME_MAX,
  POSTAL_CODE_MAX,
  STREET_MAX,
  DEFAULT_MIN_AMOUNT,
  KEYWORD_PATTERN,
  LIST_NAME_MAX,
  ORIGIN_MAX,
  MEMO_MAX,
  PEER_ID_PATTERN,
  PEER_KINDS,
  REFERENCE_PATTERN,
  RECURRING_FREQUENCIES,
  SHORTCODE_PATTERN,
  TARGET_TEXT_MAX,
  EMAIL_LOCAL_MAX,
  EMAIL_MAX,
} from "./patterns";
import {
  COUNTRY_PATTERN,
  EMAIL_PATTERN,
  emailFits,
  hasTarget,
  LAST4_PATTERN,
  ZIP_PATTERN,
} from "./request-patterns";
import { normalizeMobile } from "./phone";

// Building a schema has no side effect, but a bundler cannot tell that of a method call such as
// `.check(…)`: these annotations let each bundle drop the schemas it does not use.
/* @__NO_SIDE_EFFECTS__ */
const Text = (max: number) => z.string().check(z.maxLength(max));
/* @__NO_SIDE_EFFECTS__ */
const Required = (max: number, message: string) =>
  z.string().check(z.trim(), z.minLength(1, message), z.maxLength(max));
const EMAIL_MESSAGE = "Enter an e-mail address such as name@example.org.";
/** A donor's or a dedication's e-mail: its shape, and the standards' lengths (patterns.ts's emailFits). */
const Email = /* @__PURE__ */ z
  .email({ pattern: EMAIL_PATTERN, message: EMAIL_MESSAGE })
  .check(
    z.refine(
      emailFits,
      `An e-mail address is at most ${EMAIL_MAX} characters, ${EMAIL_LOCAL_MAX} of them before the @.`,
    ),
  );
const PeerId = /* @__PURE__ */ z
  .string()
  .check(z.regex(PEER_ID_PATTERN, "Choose a fundraiser or team from the list."));
const Keyword = /* @__PURE__ */ z
  .string()
  .check(z.regex(KEYWORD_PATTERN, "A keyword is 3 to 15 letters and digits."));
const Shortcode = /* @__PURE__ */ z
  .string()
  .check(z.regex(SHORTCODE_PATTERN, "A shortcode is 4 to 6 digits."));
/** Where a gift came from, for the fundraising service's reports (patterns.ts's CHANNEL_TAG_PATTERN). */
const CHANNEL_TAG_MESSAGE = `A source is ${CHANNEL_TAG_EXPECTED}.`;
const ChannelTag = /* @__PURE__ */ z
  .string({ error: CHANNEL_TAG_MESSAGE })
  .check(z.regex(CHANNEL_TAG_PATTERN, CHANNEL_TAG_MESSAGE));

export const RecurringFrequencySchema = z.enum(RECURRING_FREQUENCIES);
export type RecurringFrequency = z.infer<typeof RecurringFrequencySchema>;

/** Which campaign a request is for: shortcode+keyword, or event_id+event_type. */
const Target = {
  shortcode: z.optional(Shortcode),
  keyword: z.optional(Keyword),
  event_id: z.optional(Text(TARGET_TEXT_MAX)),
  event_type: z.optional(Text(TARGET_TEXT_MAX)),
};

// ── campaigns ────────────────────────────────────────────────────────────────────────────

/** A campaign the proxy serves, as in GIVEKIT_CAMPAIGNS and GET /v1/campaigns/{shortcode}/{keyword}. */
export const CampaignSchema = z.strictObject({
  shortcode: Shortcode,
  keyword: Keyword,
  event_id: z.optional(Text(TARGET_TEXT_MAX)),
  event_type: z.optional(Text(TARGET_TEXT_MAX)),
  fee_rate: RateSchema,
  min_amount: z._default(PositiveAmountSchema, DEFAULT_MIN_AMOUNT),
  max_amount: PositiveAmountSchema,
  currency: /* @__PURE__ */ z
    .string()
    .check(z.regex(CURRENCY_PATTERN, "A currency is an ISO 4217 code such as USD.")),
  recurring_frequencies: z.array(RecurringFrequencySchema),
  peer_fundraising: z.boolean(),
  opt_in_lists: z.array(Text(LIST_NAME_MAX)),
  /** What the campaign aims to raise, shown by the progress bar; none: no goal shown. */
  goal_amount: z.optional(PositiveAmountSchema),
  /**
   * The channel tag its gifts carry to the upstream's `source` when the element names none
   * (`source="…"` on <givekit-donate> wins). The operator's: not in the campaign's answer.
   */
  source: z.optional(ChannelTag),
});
export type Campaign = z.infer<typeof CampaignSchema>;

/** A saved form as a campaign's answer carries it: the attributes and theme its element takes. */
export const ServedFormSchema = /* @__PURE__ */ z.strictObject({
  name: /* @__PURE__ */ z.string().check(z.regex(FORM_NAME_PATTERN)),
  version: /* @__PURE__ */ z.number().check(z.int(), z.positive()),
  attributes: z.record(z.string(), z.string()),
  theme: z.record(z.string(), z.string()),
});

/**
 * GET /v1/campaigns/…: the campaign's settings (its `source` aside), and the origins the proxy
 * serves the widget on (ALLOWED_ORIGINS), where a form's `success-url` may lead besides its own page's.
 */
export const CampaignResponseSchema = /* @__PURE__ */ z.extend(
  /* @__PURE__ */ z.omit(CampaignSchema, { source: true }),
  {
    allowed_origins: z.optional(z.array(/* @__PURE__ */ z.string().check(z.maxLength(ORIGIN_MAX)))),
    /** With ?form=name: the saved form's latest version (contract/saved-forms.ts). */
    form: z.optional(ServedFormSchema),
  },
);
export type CampaignResponse = z.infer<typeof CampaignResponseSchema>;

/** GET /v1/campaigns/{shortcode}/{keyword}/progress: amounts as decimal strings. */
export const ProgressSchema = z.object({
  /** Every collected gift to the keyword, fees the donors covered included. */
  raised: AmountSchema,
  goal: z.nullable(AmountSchema),
  donors: z.int(),
  currency: /* @__PURE__ */ z.string().check(z.regex(CURRENCY_PATTERN)),
  /** When the upstream's report behind these figures was read (ISO 8601). */
  updated_at: z.string(),
});
export type Progress = z.infer<typeof ProgressSchema>;

export const PeerSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(PEER_KINDS),
  team_id: z.nullable(z.string()),
  team_name: z.nullable(z.string()),
  /** What the fundraiser or team has raised so far, when the upstream says. */
  raised: z.nullable(AmountSchema),
  /** A team's fundraising goal, when it has one (fundraisers have none upstream). */
  goal: z.nullable(AmountSchema),
});
export type Peer = z.infer<typeof PeerSchema>;

/**
 * GET …/peers: at most 20 peers, best first; `more`: how many others match (absent: none).
 * `?fundraiser=ID` or `?team=ID` answers that one peer, or none when the campaign has no such peer.
 */
export const PeersResponseSchema = /* @__PURE__ */ z.object({
  peers: /* @__PURE__ */ z.array(PeerSchema),
  more: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.int().check(/* @__PURE__ */ z.gte(0))),
});
export type PeersResponse = z.infer<typeof PeersResponseSchema>;

// ── gala night: the wall, the leaderboard, the live feed ─────────────────────────────────

/** One gift as a room may see it (proxy/campaign/wall.ts decides what): never an e-mail, phone or address. */
export const WallEntrySchema = /* @__PURE__ */ z.object({
  id: /* @__PURE__ */ z.string(),
  /** "Ana G.", or "Anonymous" where the donor asked. */
  name: /* @__PURE__ */ z.string(),
  /** The gift, before any fee the donor covered. */
  amount: AmountSchema,
  fundraiser_id: /* @__PURE__ */ z.nullable(/* @__PURE__ */ z.string()),
  team_id: /* @__PURE__ */ z.nullable(/* @__PURE__ */ z.string()),
  /** When it was given (ISO 8601). */
  at: /* @__PURE__ */ z.string(),
  /** The fundraiser's (else the team's) public name the gift credits, when there is one. */
  credited: /* @__PURE__ */ z.nullable(/* @__PURE__ */ z.string()),
});
export type WallEntry = z.infer<typeof WallEntrySchema>;

/** GET …/wall?limit=: the newest gifts first, from the same read as the progress figures. */
export const WallResponseSchema = /* @__PURE__ */ z.object({
  entries: /* @__PURE__ */ z.array(WallEntrySchema),
  currency: /* @__PURE__ */ z.string(),
  updated_at: /* @__PURE__ */ z.string(),
});
export type WallResponse = z.infer<typeof WallResponseSchema>;

/**
 * GET …/leaderboard?of=teams|fundraisers&limit=: by raised, most first; each peer's public fields.
 * `raised` is summed from the same report read as the progress figures (collected gifts, fees
 * excluded), so a leaderboard adds up with the thermometer beside it.
 */
export const LeaderboardResponseSchema = /* @__PURE__ */ z.object({
  of: /* @__PURE__ */ z.enum(LEADERBOARD_KINDS),
  currency: /* @__PURE__ */ z.string(),
  leaders: /* @__PURE__ */ z.array(PeerSchema),
});
export type LeaderboardResponse = z.infer<typeof LeaderboardResponseSchema>;

/**
 * A campaign's screen for the room (GET /display/{shortcode}/{keyword}), as the campaigns file's
 * `displays` list gives it: which campaign, where its donate page is (the QR code's target), and
 * the call to text (the campaign's keyword and short code unless said).
 */
export const DisplaySettingsSchema = z.strictObject({
  shortcode: Shortcode,
  keyword: Keyword,
  /** The campaign's donate page, http(s): the QR code leads there. */
  donate_url: /* @__PURE__ */ z.url({ protocol: /^https?$/ }).check(z.maxLength(500)),
  /** The heading on the screen; the keyword when absent. */
  title: z.optional(Text(80)),
  /** "Text HOPE to 71777": the keyword and the short code to text, when not the campaign's own. */
  text_keyword: z.optional(Keyword),
  text_shortcode: z.optional(Shortcode),
  /** The screen's language, one givekit speaks (contract/locales.ts); "en" by default. */
  locale: z.optional(z.enum(LOCALES)),
});
export type DisplaySettings = z.infer<typeof DisplaySettingsSchema>;

/**
 * One message of GET …/live?of= (server-sent event `figures`): the progress, the newest gifts and,
 * when `of=teams|fundraisers` is asked, that leaderboard, all from the same report read.
 */
export const LiveMessageSchema = /* @__PURE__ */ z.object({
  progress: ProgressSchema,
  wall: /* @__PURE__ */ z.array(WallEntrySchema),
  /** The upstream could not be read lately: these are the last figures (see progress.updated_at). */
  stale: /* @__PURE__ */ z.boolean(),
  /** With `?of=`: the teams or fundraisers by raised, most first, at most LEADERBOARD_LIMIT_MAX. */
  leaders: /* @__PURE__ */ z.optional(/* @__PURE__ */ z.array(PeerSchema)),
});
export type LiveMessage = z.infer<typeof LiveMessageSchema>;

// ── payment tokens ───────────────────────────────────────────────────────────────────────

export const PaymentTokenRequestSchema = CardSchema;
export type PaymentTokenRequest = z.infer<typeof PaymentTokenRequestSchema>;

// The names the card frame posts, in a file without zod (the frame's script loads none).
export { CHALLENGE_FIELD, HONEYPOT_FIELD };
/** The longest proof the proxy reads; a longer one fails the challenge unread. */
export const CHALLENGE_PROOF_MAX = 4096;
/**
 * givekit's own challenge: a proof of work signed by the proxy (the ALTCHA v2 scheme, SHA-256).
 * The frame tries counters from 0 until SHA-256(salt ‖ nonce ‖ counter as 4 bytes) starts with
 * `key_prefix`, then sends back the challenge and what it found.
 */
export const PowChallengeSchema = /* @__PURE__ */ z.object({
  provider: /* @__PURE__ */ z.literal("pow"),
  parameters: /* @__PURE__ */ z.object({
    algorithm: /* @__PURE__ */ z.literal("SHA-256"),
    nonce: /* @__PURE__ */ z.string().check(/* @__PURE__ */ z.regex(/^[0-9a-f]{2,128}$/)),
    salt: /* @__PURE__ */ z.string().check(/* @__PURE__ */ z.regex(/^[0-9a-f]{2,128}$/)),
    cost: /* @__PURE__ */ z.int().check(/* @__PURE__ */ z.gte(1), /* @__PURE__ */ z.lte(16)),
    keyLength: /* @__PURE__ */ z.int().check(/* @__PURE__ */ z.gte(8), /* @__PURE__ */ z.lte(64)),
    keyPrefix: /* @__PURE__ */ z.string().check(/* @__PURE__ */ z.regex(/^[0-9a-f]{2,128}$/)),
  }),
  /** The signed challenge, returned as it came with the solution (opaque to the frame). */
  signed: /* @__PURE__ */ z.string().check(/* @__PURE__ */ z.minLength(1), /* @__PURE__ */ z.maxLength(2048)),
});
export type PowChallenge = z.infer<typeof PowChallengeSchema>;
/**
 * What a `403 challenge_required` carries besides its code: the challenge the card frame solves
 * (givekit's own proof of work), or, where the operator configured Cloudflare Turnstile, the site
 * key to render it with and the script that draws it.
 */
export const TurnstileChallengeSchema = /* @__PURE__ */ z.object({
  provider: /* @__PURE__ */ z.literal("turnstile"),
  site_key: /* @__PURE__ */ z.string().check(/* @__PURE__ */ z.minLength(1)),
  script_url: /* @__PURE__ */ z.string().check(/* @__PURE__ */ z.minLength(1)),
});
export type TurnstileChallenge = z.infer<typeof TurnstileChallengeSchema>;
export const ChallengeSchema = /* @__PURE__ */ z.union([PowChallengeSchema, TurnstileChallengeSchema]);
export type Challenge = z.infer<typeof ChallengeSchema>;

/**
 * The campaign a tokenization is for, as the card frame knows it from its address; the proxy
 * counts its defence signals per campaign as well as overall.
 */
export const TokenCampaignSchema = /* @__PURE__ */ z.object({
  shortcode: z.optional(Shortcode),
  keyword: z.optional(Keyword),
});

export { FORM_SESSION_FIELD };

/** POST /v1/form-sessions: `{}` for a new session, or the frame's own to renew. */
export const FormSessionRequestSchema = /* @__PURE__ */ z.strictObject({
  renew: z.optional(/* @__PURE__ */ z.string().check(z.maxLength(600))),
  /** The campaign the frame was opened for: the session is bound to it. */
  shortcode: z.optional(Shortcode),
  keyword: z.optional(Keyword),
  /** The page's origin the frame was opened for (one of ALLOWED_ORIGINS): the session is bound to it too. */
  origin: z.optional(/* @__PURE__ */ z.string().check(z.maxLength(ORIGIN_MAX))),
});

/** POST /v1/form-sessions: a session, or `renew`'s start kept for another while. */
export const FormSessionResponseSchema = z.object({
  form_session: z.string(),
  expires_in_s: /* @__PURE__ */ z.int().check(z.gte(1)),
});
export type FormSessionResponse = z.infer<typeof FormSessionResponseSchema>;

/**
 * What the card frame sends beside the card for the cheap bot filters: the honeypot (empty for
 * people, who never see it) and its form session. Read apart from the card.
 */
export const FormSignalsSchema = /* @__PURE__ */ z.object({
  [HONEYPOT_FIELD]: z.optional(/* @__PURE__ */ z.string().check(z.maxLength(500))),
  [FORM_SESSION_FIELD]: z.optional(/* @__PURE__ */ z.string().check(z.maxLength(200))),
});
export type FormSignals = z.infer<typeof FormSignalsSchema>;

export const PaymentTokenResponseSchema = z.object({
  token: z.string(),
  brand: z.string(),
  last4: /* @__PURE__ */ z.string().check(z.regex(LAST4_PATTERN)),
});
export type PaymentTokenResponse = z.infer<typeof PaymentTokenResponseSchema>;

// ── donations ────────────────────────────────────────────────────────────────────────────

export const DonorSchema = /* @__PURE__ */ z
  .strictObject({
    full_name: z.optional(Required(FULL_NAME_MAX, "Enter your name.")),
    first_name: z.optional(Required(NAME_MAX, "Enter your first name.")),
    last_name: z.optional(Required(NAME_MAX, "Enter your last name.")),
    email: Email,
    phone: z.optional(
      /* @__PURE__ */ z
        .string()
        .check(
          z.refine((v) => v === "" || normalizeMobile(v) !== null, "Enter a US or Canadian phone number."),
        ),
    ),
    street_address: z.optional(Text(STREET_MAX)),
    city: z.optional(Text(CITY_MAX)),
    state: z.optional(Text(CITY_MAX)),
    zip: z.optional(
      /* @__PURE__ */ z.string().check(z.regex(ZIP_PATTERN, "Enter a ZIP code such as 12345.")),
    ),
    postal_code: z.optional(Text(POSTAL_CODE_MAX)),
    country: z.optional(/* @__PURE__ */ z.string().check(z.regex(COUNTRY_PATTERN, "Choose a country."))),
  })
  .check(
    // A full_name given is judged by its own rule (named donor.full_name); else both names are asked.
    z.refine((d) => d.full_name !== undefined || Boolean(d.first_name && d.last_name), {
      message: "Enter your first and last name.",
      path: ["first_name"],
    }),
  );
export type Donor = z.infer<typeof DonorSchema>;

/**
 * The donor's name however it was given: the full name of a form with `fields="full-name"`, else
 * the first and last names joined.
 *
 * @example
 * donorName({ full_name: "Mx Sam Rivera" }); // "Mx Sam Rivera"
 * donorName({ first_name: "Ana", last_name: "Doe" }); // "Ana Doe"
 */
export function donorName(donor: Pick<Donor, "full_name" | "first_name" | "last_name">): string {
  return donor.full_name ?? [donor.first_name, donor.last_name].filter(Boolean).join(" ");
}

/** "In honor of" or "in memory of" someone, and who is told of the gift (contract/dedication.ts). */
export const DedicationSchema = /* @__PURE__ */ z.strictObject({
  kind: z.enum(DEDICATION_KINDS),
  name: /* @__PURE__ */ z.string().check(
    z.trim(),
    z.minLength(1, "Enter the name of the person the gift honors or remembers."),
    z.maxLength(DEDICATION_NAME_MAX, `Keep the name under ${DEDICATION_NAME_MAX} characters.`),
    z.refine(
      (name) => !DEDICATION_NAME_REFUSED.test(name),
      "Enter the name without < or >, line breaks or direction marks.",
    ),
  ),
  notify_email: z.optional(Email),
});

export const DonationRequestSchema = /* @__PURE__ */ z
  .strictObject({
    ...Target,
    form_id: z.optional(Text(TARGET_TEXT_MAX)),
    /** The element's channel tag (`source="spring-gala"`), sent upstream in `source` beside the reference. */
    source: z.optional(ChannelTag),
    amount: PositiveAmountSchema,
    cover_fee: z.optional(z.boolean()),
    recurring_frequency: z.optional(RecurringFrequencySchema),
    anonymous: z.optional(z.boolean()),
    memo: z.optional(Text(MEMO_MAX)),
    /** Sent upstream in `memo`, after the donor's message (contract/dedication.ts). */
    dedication: z.optional(DedicationSchema),
    sms_opt_in_accepted: z.optional(z.boolean()),
    /** The SMS disclosure as the donor saw it, word for word: required with sms_opt_in_accepted (the consent record keeps it). */
    sms_consent_text: z.optional(
      /* @__PURE__ */ z
        .string()
        .check(
          z.minLength(CONSENT_TEXT_MIN, "The disclosure shown to the person is required."),
          z.maxLength(CONSENT_TEXT_MAX),
        ),
    ),
    /** The language of that disclosure (contract/locales.ts): the consent record keeps it beside the text. */
    sms_consent_locale: z.optional(z.enum(LOCALES)),
    pledge_wall: z.optional(z.boolean()),
    /** The page's campaign tags: never a reason to refuse a gift; whoever keeps them reads them with contract/utm.ts's readUtm. */
    utm: z.optional(z.unknown()),
    peer_fundraiser_id: z.optional(PeerId),
    peer_fundraiser_team_id: z.optional(PeerId),
    donor: DonorSchema,
    credit_card_token: /* @__PURE__ */ z
      .string()
      .check(z.minLength(1, "Enter your card details."), z.maxLength(128)),
  })
  .check(
    z.refine(hasTarget, {
      message: "Name the campaign: shortcode and keyword, or event_id and event_type.",
      path: ["keyword"],
    }),
    // An SMS opt-in is a consent like any other: the disclosure shown, and the number it is for.
    z.refine((d) => d.sms_opt_in_accepted !== true || d.sms_consent_text !== undefined, {
      message: "The disclosure shown to the person is required.",
      path: ["sms_consent_text"],
    }),
    z.refine((d) => d.sms_opt_in_accepted !== true || Boolean(d.donor.phone), {
      message: "Enter the mobile number the messages go to.",
      path: ["donor", "phone"],
    }),
    z.refine((d) => memoFits(d.memo, d.dedication), {
      message: `The message and the dedication together must be under ${UPSTREAM_MEMO_MAX} characters.`,
      path: ["dedication", "name"],
    }),
  );
export type DonationRequest = z.infer<typeof DonationRequestSchema>;

export const DonationSuccessSchema = z.object({
  donation: z.object({
    status: z.literal("Success"),
    message: z.string(),
    transaction_id: z.string(),
    amount: AmountSchema,
    fee_amount: AmountSchema,
    recurring_frequency: z.nullable(RecurringFrequencySchema),
  }),
});

/** The outcome is unknown: the upstream may have charged. The donor must not try again. */
export const DonationPendingSchema = z.object({
  donation: z.object({ status: z.literal("Pending"), reference: z.string() }),
});

export const DonationResponseSchema = z.union([DonationSuccessSchema, DonationPendingSchema]);
export type DonationResponse = z.infer<typeof DonationResponseSchema>;

/** A donation reference as givekit makes them. */
export const DonationReferenceSchema = /* @__PURE__ */ z.string().check(z.regex(REFERENCE_PATTERN));

/**
 * `GET /v1/donations/{reference}`: what became of a donation, no personal data. `NotCharged`:
 * nothing was taken (declined, refused, or never charged), the donor may try again.
 */
export const DonationStatusResponseSchema = z.object({
  donation: z.object({
    status: z.enum(["Pending", "Success", "NotCharged"]),
    reference: z.string(),
    transaction_id: z.optional(z.string()),
  }),
});
export type DonationStatusResponse = z.infer<typeof DonationStatusResponseSchema>;

// ── SMS subscriptions ────────────────────────────────────────────────────────────────────

export const SubscriptionRequestSchema = /* @__PURE__ */ z
  .strictObject({
    // Parsed to its ten digits once, here; "" when it is not a US or Canadian mobile number.
    mobilenumber: /* @__PURE__ */ z.string().check(
      z.overwrite((v) => normalizeMobile(v) ?? ""),
      z.minLength(1, "Enter a 10-digit US or Canadian mobile number."),
    ),
    list: z.optional(Text(LIST_NAME_MAX)),
    keyword: z.optional(Keyword),
    shortcode: z.optional(Shortcode),
    firstname: z.optional(Text(NAME_MAX)),
    lastname: z.optional(Text(NAME_MAX)),
    consent: z.boolean(),
    consent_text: /* @__PURE__ */ z
      .string()
      .check(
        z.minLength(CONSENT_TEXT_MIN, "The disclosure shown to the person is required."),
        z.maxLength(CONSENT_TEXT_MAX),
      ),
    /** The language the disclosure was shown in (contract/locales.ts); kept with it. */
    consent_locale: z.optional(z.enum(LOCALES)),
  })
  .check(
    z.refine((v) => Boolean(v.list || (v.keyword && v.shortcode)), {
      message: "Name a list, or a keyword and shortcode.",
      path: ["list"],
    }),
  );
export type SubscriptionRequest = z.infer<typeof SubscriptionRequestSchema>;

export const SubscriptionResponseSchema = z.object({
  subscription: z.object({ status: z.literal("subscribed"), mobilenumber: z.string() }),
});
export type SubscriptionResponse = z.infer<typeof SubscriptionResponseSchema>;

export const IDEMPOTENCY_KEY_MAX = 255;
