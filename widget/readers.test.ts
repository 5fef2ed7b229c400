/**
 * The widget reads what the proxy and the card frame send by hand (widget/shared/checks.ts),
 * to keep zod's parsers out of its bundles. These properties hold each reader to the contract
 * schema it stands for: over values near and far from valid, the reader accepts exactly what
 * the schema accepts, and what it reads is what the schema parses.
 */
import * as fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import type * as z from "zod/mini";
import * as zm from "zod/mini";
import {
  CampaignResponseSchema,
  CampaignSchema,
  DonationResponseSchema,
  DonationStatusResponseSchema,
  LeaderboardResponseSchema,
  LiveMessageSchema,
  PeerSchema,
  ProgressSchema,
  WallEntrySchema,
  WallResponseSchema,
  PeersResponseSchema,
  RecurringFrequencySchema,
  type Campaign,
} from "../contract/api";
import { PositiveAmountSchema } from "../contract/money-schemas";
import { ERROR_CODES, UNREACHABLE } from "../contract/errors";
import { FORM_STEPS } from "../contract/form-steps";
import { FORM_NAME_PATTERN } from "../contract/saved-forms";
import { FromFrameMessageSchema, ToFrameMessageSchema } from "../contract/frame";
import {
  AMOUNT_PATTERN,
  CURRENCY_PATTERN,
  KEYWORD_PATTERN,
  RATE_PATTERN,
  SHORTCODE_PATTERN,
} from "../contract/patterns";
import {
  FREQUENCIES,
  FREQUENCY,
  LAYOUT,
  LAYOUTS,
  OPTIONAL_FIELDS,
  readFields,
  type OptionalField,
} from "./donate/base/attributes";
import { readDonation, readDonationStatus } from "./donate/outcome/donation-responses";
import { readCampaign, readPeers } from "./donate/base/responses";
import { servedCampaignReader } from "./donate/saved/SavedForm";
import { readProgress } from "./shared/read-progress";
import { readLeaderboard, readLive, readWall } from "./shared/read-feeds";
import { KEYWORD, POSITIVE_AMOUNT, SHORTCODE, text as attributeText, type Rule } from "./shared/attributes";
import { readFromFrameMessage, readToFrameMessage } from "./shared/frame-messages";

const RUNS = 2000;

/** Values of every JSON type and a few that only postMessage can carry. */
const junk: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ maxLength: 8, unit: "binary" }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, -0),
  fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.string({ maxLength: 4 }), { maxKeys: 3 }),
);

/** Mostly a value the schema may take, sometimes a near miss or anything at all. */
const field = (valid: fc.Arbitrary<unknown>, ...nearMisses: unknown[]) =>
  fc.oneof(
    { weight: 40, arbitrary: valid },
    { weight: 1, arbitrary: nearMisses.length > 0 ? fc.constantFrom(...nearMisses) : junk },
    { weight: 1, arbitrary: junk },
  );

/**
 * Any text up to `max` code points, as zod counts them: astral characters (an emoji is two UTF-16
 * units), combining marks, whole graphemes, and near the limit too.
 */
const text = (max: number) =>
  fc.oneof(
    { weight: 8, arbitrary: fc.string({ maxLength: max, unit: "binary" }) },
    { weight: 1, arbitrary: fc.string({ maxLength: max, unit: "grapheme" }) },
    {
      weight: 1,
      arbitrary: fc.string({ minLength: Math.max(0, max - 2), maxLength: max + 2, unit: "binary" }),
    },
    // Within the limit in code points, past it in UTF-16 units: where a reader counting units drifts.
    {
      weight: 1,
      arbitrary: fc
        .array(fc.constantFrom("😀", "𝄞", "🇪🇸"), { minLength: Math.floor(max / 2) + 1, maxLength: max })
        .map((parts) => parts.join("")),
    },
  );
const matching = (pattern: RegExp) => fc.stringMatching(pattern);
const amount = field(
  fc.oneof(
    matching(AMOUNT_PATTERN),
    fc.integer({ min: 1, max: 99_999_999 }).map((cents) => (cents / 100).toFixed(2)),
  ),
  "007",
  "0",
  "0.00",
  "1e3",
  "-5",
  "25.555",
  " 25",
  "1000000000",
);
const errors = field(
  fc.dictionary(fc.string({ maxLength: 6 }), fc.array(fc.string({ maxLength: 6 }), { maxLength: 2 }), {
    maxKeys: 3,
  }),
  { card_number: "Not valid." },
  { card_number: [1] },
  [],
  {},
);

/** Now and then a value, mostly null. */
const rarely = <T>(value: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 8, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: value });

/** The field names of every object generator made, to check them against their schemas. */
const generated: string[][] = [];

/** An object of these fields, now and then one missing or one the schema does not name. */
function objectOf(fields: Record<string, fc.Arbitrary<unknown>>) {
  generated.push(Object.keys(fields));
  return fc
    .tuple(
      fc.record(fields),
      rarely(fc.constantFrom(...Object.keys(fields))),
      rarely(fc.dictionary(fc.constantFrom("extra", "id", "note", "status"), junk, { maxKeys: 2 })),
    )
    .map(([known, missing, extra]) => {
      const value: Record<string, unknown> = { ...extra, ...known };
      if (missing !== null) delete value[missing];
      return value;
    })
    .chain((value) => fc.oneof({ weight: 20, arbitrary: fc.constant(value) }, junk));
}

/**
 * The reader says yes exactly when the schema does, and reads what the schema parses. Returns
 * how many values both accepted: a property that only ever sees refusals proves little.
 */
function holdsTo<T>(
  schema: z.ZodMiniType,
  reader: (value: unknown) => T | null,
  values: fc.Arbitrary<unknown>,
): number {
  let accepted = 0;
  fc.assert(
    fc.property(values, (value) => {
      const parsed = schema.safeParse(value);
      const read = reader(value);
      if (read !== null) accepted++;
      expect(read).toEqual(parsed.success ? parsed.data : null);
    }),
    { numRuns: RUNS },
  );
  return accepted;
}

/** Enough accepted values to say something. */
const ENOUGH = RUNS / 10;

const frequency = field(fc.constantFrom("monthly", "quarterly", "annually"), "weekly", "Monthly");

describe("widget/donate/base/responses.ts and outcome/donation-responses.ts read the proxy's answers as contract/api.ts does", () => {
  it("readServedCampaign (readCampaign, and a saved form beside it) and CampaignResponseSchema", () => {
    const campaign = objectOf({
      shortcode: field(matching(SHORTCODE_PATTERN), "123", "1234567", "7177a"),
      keyword: field(matching(KEYWORD_PATTERN), "HO", "HOPE!", "A".repeat(16)),
      event_id: field(text(70)),
      event_type: field(text(70)),
      fee_rate: field(matching(RATE_PATTERN), "05", "0.1234567", "100", "-0.03"),
      min_amount: amount,
      max_amount: amount,
      currency: field(matching(CURRENCY_PATTERN), "usd", "US", "USDX"),
      recurring_frequencies: field(fc.array(frequency, { maxLength: 3 })),
      peer_fundraising: field(fc.boolean(), "true", 1),
      opt_in_lists: field(fc.array(text(110), { maxLength: 2 })),
      goal_amount: amount,
      allowed_origins: field(fc.array(text(210), { maxLength: 2 }), "https://a.example", [1]),
      form: field(
        fc.record({
          name: matching(FORM_NAME_PATTERN),
          version: fc.integer({ min: 1, max: 1000 }),
          attributes: fc.dictionary(fc.stringMatching(/^[a-z-]{1,12}$/), fc.string(), { maxKeys: 3 }),
          theme: fc.dictionary(fc.stringMatching(/^[a-z]{1,8}$/), fc.string(), { maxKeys: 2 }),
        }),
        { name: "Year End", version: 1, attributes: {}, theme: {} },
        { name: "year-end", version: 0, attributes: {}, theme: {} },
        { name: "year-end", version: 1.5, attributes: {}, theme: {} },
        { name: "year-end", version: 1, attributes: { amounts: 50 }, theme: {} },
        { name: "year-end", version: 1, attributes: {}, theme: {}, extra: 1 },
      ),
    });
    // A field the schema gains and the generator lacks would go untested: the two must agree.
    expect(generated.at(-1)!.toSorted()).toEqual(Object.keys(CampaignResponseSchema.shape).toSorted());
    const readServedCampaign = servedCampaignReader(readCampaign);
    expect(holdsTo(CampaignResponseSchema, readServedCampaign, campaign)).toBeGreaterThan(ENOUGH);
    // The first step's reader knows no saved form: only a page with `form` asks for one.
    const settings = {
      shortcode: "71777",
      keyword: "HOPE",
      fee_rate: "0.03",
      min_amount: "5.00",
      max_amount: "10000.00",
      currency: "USD",
      recurring_frequencies: [],
      peer_fundraising: false,
      opt_in_lists: [],
    };
    const form = { name: "year-end", version: 2, attributes: { amounts: "50,100" }, theme: {} };
    expect(readCampaign({ ...settings, form })).toBeNull();
    expect(readServedCampaign({ ...settings, form })).toEqual({ ...settings, form });
  });

  it("readPeers and PeersResponseSchema", () => {
    const peer = objectOf({
      id: field(fc.string({ maxLength: 6 }), 101),
      name: field(fc.string({ maxLength: 6 })),
      kind: field(fc.constantFrom("fundraiser", "team"), "Team", "npo"),
      team_id: field(fc.option(fc.string({ maxLength: 4 }))),
      team_name: field(fc.option(fc.string({ maxLength: 4 }))),
      raised: field(fc.option(amount, { nil: null }), undefined),
      goal: field(fc.option(amount, { nil: null }), undefined),
    });
    expect(generated.at(-1)!.toSorted()).toEqual(Object.keys(PeerSchema.shape).toSorted());
    const peers = objectOf({
      peers: field(fc.array(peer, { maxLength: 2 })),
      more: field(fc.nat(), -1, 1.5, 2 ** 53, "3"),
    });
    expect(generated.at(-1)!.toSorted()).toEqual(Object.keys(PeersResponseSchema.shape).toSorted());
    expect(holdsTo(PeersResponseSchema, readPeers, peers)).toBeGreaterThan(ENOUGH);
  });

  it("readDonation and DonationResponseSchema", () => {
    const success = objectOf({
      status: field(fc.constant("Success"), "Pending", "success"),
      message: field(fc.string({ maxLength: 8 })),
      transaction_id: field(fc.string({ maxLength: 8 }), 1001),
      amount,
      fee_amount: amount,
      recurring_frequency: field(fc.option(fc.constantFrom("monthly", "quarterly", "annually"))),
    });
    const pending = objectOf({
      status: field(fc.constant("Pending"), "Success"),
      reference: field(fc.string({ maxLength: 8 })),
    });
    const answer = objectOf({ donation: fc.oneof(success, pending) });
    expect(holdsTo(DonationResponseSchema, readDonation, answer)).toBeGreaterThan(ENOUGH);
  });

  it("readDonationStatus and DonationStatusResponseSchema", () => {
    const donation = objectOf({
      status: field(fc.constantFrom("Pending", "Success", "NotCharged"), "Declined", "success", "notcharged"),
      reference: field(fc.string({ maxLength: 8 }), 1001),
      transaction_id: field(fc.option(fc.string({ maxLength: 8 }), { nil: undefined }), 1001, null),
    });
    const shape = DonationStatusResponseSchema.shape.donation.shape;
    // A field the schema gains and the generator lacks would go untested: the two must agree.
    expect(generated.at(-1)!.toSorted()).toEqual(Object.keys(shape).toSorted());
    const answer = objectOf({ donation });
    expect(holdsTo(DonationStatusResponseSchema, readDonationStatus, answer)).toBeGreaterThan(ENOUGH);
  });
});

describe("widget/shared/read-progress.ts reads the progress answer as contract/api.ts does", () => {
  it("readProgress and ProgressSchema", () => {
    const progress = objectOf({
      raised: amount,
      goal: field(fc.option(amount, { nil: null }), undefined, "0x10"),
      donors: field(fc.integer({ min: 0, max: 1_000_000 }), 1.5, "12", -0, Number.MAX_SAFE_INTEGER + 2),
      currency: field(fc.constantFrom("USD", "CAD"), "usd", "US", "USDX"),
      updated_at: field(
        fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
        0,
        null,
      ),
    });
    expect(generated.at(-1)!.toSorted()).toEqual(Object.keys(ProgressSchema.shape).toSorted());
    expect(holdsTo(ProgressSchema, readProgress, progress)).toBeGreaterThan(ENOUGH);
  });
});

describe("widget/shared/frame-messages.ts reads the frame's messages as contract/frame.ts does", () => {
  const id = field(fc.string({ maxLength: 6 }), "");

  it("readToFrameMessage and ToFrameMessageSchema", () => {
    const message = objectOf({
      type: field(
        fc.constantFrom(
          "givekit:tokenize",
          "givekit:reset",
          "givekit:focus",
          "givekit:start",
          "givekit:locale",
          "givekit:theme",
          "givekit:step",
        ),
        "givekit:token",
      ),
      width: field(fc.integer({ min: 0, max: 4000 }), Number.NaN, "390"),
      channel: field(fc.constantFrom("spring-gala", "newsletter", "")),
      step: field(fc.constantFrom(...FORM_STEPS), "reached", "Shown", "toString"),
      code: field(fc.constantFrom("card_declined", "validation_failed", "closed")),
      field: field(fc.constantFrom("email", "amount")),
      id,
      locale: field(fc.constantFrom("vi", "ar", "pt-BR", "")),
      text: field(fc.constantFrom("rgb(27, 31, 36)", ""), 12),
      font: field(fc.string({ maxLength: 6 })),
      size: field(fc.constantFrom("16px", "1.2em")),
      accent: field(fc.constantFrom("#b00", "red")),
      radius: field(fc.constantFrom("0", "8px")),
    });
    expect(holdsTo(ToFrameMessageSchema, readToFrameMessage, message)).toBeGreaterThan(ENOUGH);
  });

  it("readFromFrameMessage and FromFrameMessageSchema", () => {
    const types = [
      "givekit:frame-ready",
      "givekit:submit",
      "givekit:resize",
      "givekit:card-state",
      "givekit:token",
      "givekit:token-error",
    ];
    // A message type the schema gains and this list lacks would go untested: the two must agree.
    const schemaTypes = FromFrameMessageSchema._zod.def.options.map(
      (option) =>
        (option._zod.def as unknown as { shape: { type: z.ZodMiniLiteral } }).shape.type._zod.def.values[0],
    );
    expect(types.toSorted()).toEqual(schemaTypes.toSorted());
    const message = objectOf({
      type: field(fc.constantFrom(...types), "givekit:tokenize", "toString", "__proto__"),
      height: field(fc.double()),
      complete: field(fc.boolean()),
      brand: field(fc.constantFrom("visa", "amex", "")),
      id,
      token: field(fc.string({ maxLength: 6 }), ""),
      last4: field(fc.stringMatching(/^\d{4}$/), "424", "42424", "abcd"),
      code: field(fc.constantFrom(...ERROR_CODES, UNREACHABLE), "bad_code", "network error", "toString"),
      errors,
    });
    expect(holdsTo(FromFrameMessageSchema, readFromFrameMessage, message)).toBeGreaterThan(ENOUGH);
  });

  it("a token-error's code is one of the contract's error codes, not any snake_case word", () => {
    const message = { type: "givekit:token-error", id: "t-1", code: "made_up_code" };
    expect(FromFrameMessageSchema.safeParse(message).success).toBe(false);
    expect(readFromFrameMessage(message)).toBeNull();
  });
});

// The campaign a proxy serves without a minimum reads with the contract's default minimum.
it("a campaign without min_amount reads with the contract's default", () => {
  const campaign: Partial<Campaign> = {
    shortcode: "71777",
    keyword: "HOPE",
    fee_rate: "0.03",
    max_amount: "10000.00",
    currency: "USD",
    recurring_frequencies: [],
    peer_fundraising: false,
    opt_in_lists: [],
  };
  expect(readCampaign(campaign)).toEqual(CampaignSchema.parse(campaign));
  expect(readCampaign(campaign)?.min_amount).toBe("5.00");
});

/** An attribute's value: any text, mostly near the rule's edges. */
const attribute = (...near: fc.Arbitrary<string>[]) =>
  fc.oneof(fc.string({ maxLength: 12 }), fc.string({ unit: "grapheme", maxLength: 4 }), ...near);
const readerOf =
  ([read]: Rule) =>
  (value: unknown) =>
    read(value as string) ?? null;

/** One `fields` entry as readFields reads it, written out again ("address:required"), or null. */
const fieldEntryAsWritten = (value: unknown) => {
  const fields = readFields(value as string);
  const [name] = Object.keys(fields) as OptionalField[];
  return name ? `${name}${fields[name] ? ":required" : ""}` : null;
};

describe("widget/shared/attributes.ts reads attributes as the schemas they stand for", () => {
  it("POSITIVE_AMOUNT and contract/money.ts's PositiveAmountSchema", () => {
    const values = attribute(
      matching(AMOUNT_PATTERN),
      fc.constantFrom("0", "0.00", "0.01", "007", "1e3", "-5", "25.555", " 25", "1000000000"),
    );
    expect(holdsTo(PositiveAmountSchema, readerOf(POSITIVE_AMOUNT), values)).toBeGreaterThan(RUNS / 10);
  });

  it("FREQUENCY and the contract's frequencies, with once", () => {
    const schema = zm.enum(["once", ...RecurringFrequencySchema.options]);
    const values = attribute(fc.constantFrom(...FREQUENCIES, "Monthly", "weekly", " once"));
    expect(holdsTo(schema, readerOf(FREQUENCY), values)).toBeGreaterThan(RUNS / 10);
  });

  it("text(max): trimmed, 1 to max characters", () => {
    const schema = zm.string().check(zm.trim(), zm.minLength(1), zm.maxLength(5));
    const values = attribute(fc.string({ maxLength: 7 }).map((value) => ` ${value} `));
    expect(holdsTo(schema, readerOf(attributeText(5)), values)).toBeGreaterThan(RUNS / 10);
  });

  it("matching(pattern): SHORTCODE and KEYWORD as their patterns", () => {
    const rules: [Rule, RegExp][] = [
      [SHORTCODE, SHORTCODE_PATTERN],
      [KEYWORD, KEYWORD_PATTERN],
    ];
    for (const [rule, pattern] of rules) {
      const schema = zm.string().check(zm.regex(pattern));
      // fast-check generates from patterns without flags: an `i` pattern's other case is added by hand.
      const near = matching(new RegExp(pattern.source));
      const values = attribute(
        near,
        near.map((value) => value.toUpperCase()),
        near.map((value) => `${value} `),
      );
      expect(holdsTo(schema, readerOf(rule), values)).toBeGreaterThan(RUNS / 10);
    }
  });

  it("LAYOUT and the layouts", () => {
    const values = attribute(fc.constantFrom(...LAYOUTS, "Single", "one", " steps"));
    expect(holdsTo(zm.enum(LAYOUTS), readerOf(LAYOUT), values)).toBeGreaterThan(RUNS / 10);
  });

  it("readFields: one entry, one of the fields a nonprofit can turn on, optionally :required", () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const names = zm.enum(OPTIONAL_FIELDS);
    // An entry is read trimmed and in lower case; a comma would make it two.
    const schema = zm.pipe(
      zm.string().check(zm.trim(), zm.toLowerCase()),
      zm.union([names, zm.templateLiteral([names, ":required"])]),
    );
    const values = attribute(
      fc.constantFrom(...OPTIONAL_FIELDS),
      fc.constantFrom(...OPTIONAL_FIELDS).map((name) => ` ${name.toUpperCase()}:required`),
      fc.constantFrom(
        "adress",
        "pledge_wall",
        "phone:Required",
        "phone:",
        ":required",
        "sms:required:required",
      ),
    ).filter((value) => !value.includes(","));
    expect(holdsTo(schema, fieldEntryAsWritten, values)).toBeGreaterThan(RUNS / 10);
    vi.restoreAllMocks();
  });
});

describe("widget/shared/read-feeds.ts reads the wall, the leaderboard and the live feed as contract/api.ts does", () => {
  const short = field(fc.string({ maxLength: 6 }), 7);
  const progress = objectOf({
    raised: amount,
    goal: field(fc.option(amount, { nil: null }), undefined),
    donors: field(fc.nat({ max: 1000 }), -1, "3"),
    currency: field(fc.constantFrom("USD", "CAD"), "usd"),
    updated_at: field(fc.constant("2026-11-27T20:15:00.000Z"), 0),
  });
  const entry = objectOf({
    id: short,
    name: short,
    amount,
    fundraiser_id: field(fc.option(fc.string({ maxLength: 4 }), { nil: null }), 101),
    team_id: field(fc.option(fc.string({ maxLength: 4 }), { nil: null }), 7),
    at: short,
    credited: field(fc.option(fc.string({ maxLength: 6 }), { nil: null }), undefined),
  });
  const entryFields = generated.at(-1)!;
  const peer = objectOf({
    id: short,
    name: short,
    kind: field(fc.constantFrom("fundraiser", "team"), "Team"),
    team_id: field(fc.option(fc.string({ maxLength: 4 }), { nil: null })),
    team_name: field(fc.option(fc.string({ maxLength: 4 }), { nil: null })),
    raised: field(fc.option(amount, { nil: null }), undefined),
    goal: field(fc.option(amount, { nil: null }), undefined),
  });

  it("readWall and WallResponseSchema", () => {
    const wall = objectOf({
      entries: field(fc.array(entry, { maxLength: 2 })),
      currency: short,
      updated_at: short,
    });
    expect(entryFields.toSorted()).toEqual(Object.keys(WallEntrySchema.shape).toSorted());
    expect(generated.at(-1)!.toSorted()).toEqual(Object.keys(WallResponseSchema.shape).toSorted());
    expect(holdsTo(WallResponseSchema, readWall, wall)).toBeGreaterThan(ENOUGH);
  });

  it("readLeaderboard and LeaderboardResponseSchema", () => {
    const board = objectOf({
      of: field(fc.constantFrom("teams", "fundraisers"), "team", "donors"),
      currency: short,
      leaders: field(fc.array(peer, { maxLength: 2 })),
    });
    expect(generated.at(-1)!.toSorted()).toEqual(Object.keys(LeaderboardResponseSchema.shape).toSorted());
    expect(holdsTo(LeaderboardResponseSchema, readLeaderboard, board)).toBeGreaterThan(ENOUGH);
  });

  it("readLive and LiveMessageSchema, with and without its leaderboard", () => {
    const live = objectOf({
      progress,
      wall: field(fc.array(entry, { maxLength: 2 })),
      stale: field(fc.boolean(), "true", 0),
      leaders: field(fc.option(fc.array(peer, { maxLength: 2 }), { nil: undefined }), null),
    });
    expect(generated.at(-1)!.toSorted()).toEqual(Object.keys(LiveMessageSchema.shape).toSorted());
    expect(holdsTo(LiveMessageSchema, readLive, live)).toBeGreaterThan(ENOUGH);
  });
});
