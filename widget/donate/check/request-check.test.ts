/**
 * The widget checks a donation request with contract/'s rules by hand (request-check.ts), to keep
 * zod's parsers out of what a donation loads. These properties hold that check to the schema the
 * proxy applies, contract/api.ts's DonationRequestSchema: over requests such as the form builds
 * (each field of its type, its value anything from valid to far off), the check refuses exactly
 * the paths the schema refuses.
 */
import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DonationRequestSchema } from "../../../contract/api";
import { DEDICATION_KINDS, DEDICATION_NAME_MAX } from "../../../contract/dedication";
import {
  AMOUNT_PATTERN,
  CHANNEL_TAG_PATTERN,
  CONSENT_TEXT_MAX,
  CONSENT_TEXT_MIN,
  FULL_NAME_MAX,
  KEYWORD_PATTERN,
  MEMO_MAX,
  NAME_MAX,
  PEER_ID_PATTERN,
  POSTAL_CODE_MAX,
  RECURRING_FREQUENCIES,
  SHORTCODE_PATTERN,
  STREET_MAX,
  TARGET_TEXT_MAX,
  UPSTREAM_MEMO_MAX,
} from "../../../contract/patterns";
import { COUNTRY_PATTERN, ZIP_PATTERN } from "../../../contract/request-patterns";
import { normalizeMobile } from "../../../contract/phone";
import { dedicationShape, memoFits } from "../options/dedication";
import { refusedPaths as refusedPathsWith, type UncheckedRequest } from "./request-check";

/** The check as a form that asks a phone and a dedication has it. */
const refusedPaths = (request: UncheckedRequest) =>
  refusedPathsWith(request, { normalizeMobile, dedicationShape, memoFits });

const RUNS = 3000;

const GOOD: UncheckedRequest = {
  shortcode: "71777",
  keyword: "HOPE",
  amount: "50",
  donor: { first_name: "Grace", last_name: "Hopper", email: "grace@example.org" },
};

/** The paths the schema refuses, as the proxy would name them. */
function schemaRefuses(request: UncheckedRequest): string[] {
  const parsed = DonationRequestSchema.safeParse({ ...request, credit_card_token: "tok_checked" });
  return parsed.success
    ? []
    : [...new Set(parsed.error.issues.map((issue) => issue.path.join(".")))].toSorted();
}
const checkRefuses = (request: UncheckedRequest) => [...new Set(refusedPaths(request))].toSorted();

/** Text around `max` code points: short, near the limit on both sides, astral, padded with spaces. */
const text = (max: number) =>
  fc.oneof(
    { weight: 6, arbitrary: fc.string({ maxLength: Math.min(max, 12), unit: "binary" }) },
    { weight: 2, arbitrary: fc.string({ minLength: max - 2, maxLength: max + 2, unit: "grapheme-ascii" }) },
    {
      weight: 1,
      arbitrary: fc
        .array(fc.constantFrom("😀", "𝄞", "é"), { minLength: max - 1, maxLength: max + 1 })
        .map((parts) => parts.join("")),
    },
    { weight: 1, arbitrary: fc.constantFrom("", " ", "  \t ", "\n") },
    { weight: 1, arbitrary: fc.string({ maxLength: 6 }).map((core) => `  ${core} `) },
  );
/** A value the pattern takes, or a near miss. */
const matchingOr = (pattern: RegExp, ...misses: string[]) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.stringMatching(pattern) },
    { weight: 1, arbitrary: fc.constantFrom(...misses) },
  );

/** A domain of `length` characters ("ddd….org"). */
const domain = (length: number) => `${"d".repeat(length - 4)}.org`;

/** An address of the right shape near the standards' lengths: a local part of 60 to 70, a whole of 240 to 300. */
const longEmail = fc
  .tuple(fc.integer({ min: 60, max: 70 }), fc.integer({ min: 240, max: 300 }), fc.boolean())
  .map(([local, whole, longLocal]) => {
    const name = longLocal ? "a".repeat(local) : "ana";
    return `${name}@${"d".repeat(Math.max(1, whole - name.length - 5))}.org`;
  });
const email = fc.oneof(
  { weight: 4, arbitrary: fc.emailAddress() },
  { weight: 2, arbitrary: longEmail },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "",
      "ana@",
      "ana@example",
      "ana@@example.org",
      " ana@example.org",
      "ana.@example.org",
      "ana@-example.org",
      "ana@example.o",
      "ana o@example.org",
      "o'brien@example.ie",
      "ána@example.org",
    ),
  },
);
const phone = fc.constantFrom(
  "",
  "(555) 123-4567",
  "+1 212 555 0100",
  "1-416-555-0199",
  "268 555 1234",
  "787 555 1234",
  "555-0100",
  "12345",
  "+44 20 7946 0958",
  "call me",
  "011 44 20 7946 0958",
);

const donorFields = fc.record(
  {
    full_name: text(FULL_NAME_MAX),
    first_name: text(NAME_MAX),
    last_name: text(NAME_MAX),
    email,
    phone,
    street_address: text(STREET_MAX),
    city: text(100),
    state: text(100),
    zip: matchingOr(ZIP_PATTERN, "", "1234", "12345-", "123456", "ABCDE"),
    postal_code: text(POSTAL_CODE_MAX),
    country: matchingOr(COUNTRY_PATTERN, "", "us", "USA", "U"),
  },
  // With `fields="full-name"` the form sends full_name alone; else first_name and last_name.
  { requiredKeys: ["email"] },
);

const dedication = fc.record(
  {
    kind: fc.constantFrom(...DEDICATION_KINDS),
    name: fc.oneof(
      text(DEDICATION_NAME_MAX),
      fc.constantFrom(
        "Jane <Doe>",
        "Jane\nDoe",
        "Jane\u0007",
        " Jane Doe ",
        // Unicode line and paragraph separators, C1 controls and bidi controls split or turn a memo line.
        "Jane\u2028[Dedication] In honor of Evil",
        "Jane\u2029Doe",
        "Jane\u0085Doe",
        "Jane \u202Eeod",
        "Jane \u2066Doe\u2069",
        "Jane\u200F Doe",
      ),
    ),
    notify_email: email,
  },
  { requiredKeys: ["kind", "name"] },
);

/** Shortcode and keyword, or an event, or parts of either. */
const target = fc.record(
  {
    shortcode: matchingOr(SHORTCODE_PATTERN, "", "123", "1234567", "12a45"),
    keyword: matchingOr(KEYWORD_PATTERN, "", "HI", "HOPE!", "ABCDEFGHIJKLMNOP"),
    event_id: text(TARGET_TEXT_MAX),
    event_type: text(TARGET_TEXT_MAX),
  },
  { requiredKeys: [] },
);

const anyRequest: fc.Arbitrary<UncheckedRequest> = fc
  .tuple(
    target,
    fc.record(
      {
        form_id: text(TARGET_TEXT_MAX),
        // The element's `source` attribute is read by the schema's rule (attributes.test.ts): the
        // form sends only a tag the rule took, and the check spends no bytes on it again.
        source: fc.stringMatching(CHANNEL_TAG_PATTERN),
        amount: matchingOr(AMOUNT_PATTERN, "", "0", "0.00", "007", "1e3", "-5", "25.555", " 25"),
        cover_fee: fc.boolean(),
        recurring_frequency: fc.constantFrom(...RECURRING_FREQUENCIES),
        anonymous: fc.boolean(),
        memo: fc.oneof(text(MEMO_MAX), text(UPSTREAM_MEMO_MAX)),
        dedication,
        sms_opt_in_accepted: fc.boolean(),
        sms_consent_text: fc.oneof(text(CONSENT_TEXT_MIN), text(CONSENT_TEXT_MAX)),
        pledge_wall: fc.boolean(),
        utm: fc.dictionary(fc.constantFrom("utm_source", "utm_medium"), fc.string({ maxLength: 8 })),
        peer_fundraiser_id: matchingOr(PEER_ID_PATTERN, "", "a b", "x".repeat(65)),
        peer_fundraiser_team_id: matchingOr(PEER_ID_PATTERN, "", "a/b"),
        donor: donorFields,
      },
      { requiredKeys: ["amount", "donor"] },
    ),
  )
  .map(([campaign, gift]) => ({ ...campaign, ...gift }) as UncheckedRequest);

/** A good request with one field, or one of the donor's, as another request has it (or left out). */
const oneChange: fc.Arbitrary<UncheckedRequest> = fc
  .tuple(anyRequest, fc.boolean())
  .chain(([other, ofDonor]) => {
    const from: Record<string, unknown> = ofDonor ? other.donor : other;
    return fc.constantFrom(...Object.keys(from)).map((key) => {
      const changed = { [key]: from[key] };
      return ofDonor
        ? { ...GOOD, donor: { ...GOOD.donor, ...changed } }
        : ({ ...GOOD, ...changed } as UncheckedRequest);
    });
  });

const request = fc.oneof(anyRequest, oneChange);

describe("the widget's request check and DonationRequestSchema", () => {
  it("refuse exactly the same paths, over requests such as the form builds", () => {
    const seen = new Set<string>();
    let taken = 0;
    fc.assert(
      fc.property(request, (candidate) => {
        const expected = schemaRefuses(candidate);
        expect(checkRefuses(candidate)).toEqual(expected);
        for (const path of expected) seen.add(path);
        if (expected.length === 0) taken++;
      }),
      { numRuns: RUNS },
    );
    // The generator reaches every rule, and requests the schema takes: a property that holds of something.
    expect([...seen].toSorted()).toEqual(
      [
        "amount",
        "dedication.name",
        "dedication.notify_email",
        "donor.city",
        "donor.country",
        "donor.email",
        "donor.first_name",
        "donor.full_name",
        "donor.last_name",
        "donor.phone",
        "donor.postal_code",
        "donor.state",
        "donor.street_address",
        "donor.zip",
        "event_id",
        "event_type",
        "form_id",
        "keyword",
        "memo",
        "peer_fundraiser_id",
        "peer_fundraiser_team_id",
        "shortcode",
        "sms_consent_text",
      ].toSorted(),
    );
    expect(taken).toBeGreaterThan(RUNS / 100);
  });

  it("take a good request, and name each field a donor can get wrong", () => {
    expect(refusedPaths(GOOD)).toEqual([]);
    const refused = (change: Partial<UncheckedRequest>, donor: Partial<UncheckedRequest["donor"]> = {}) =>
      checkRefuses({ ...GOOD, ...change, donor: { ...GOOD.donor, ...donor } });
    expect(refused({}, { email: "grace@" })).toEqual(["donor.email"]);
    // The standards' lengths: 64 before the @, 254 in all.
    expect(refused({}, { email: `${"a".repeat(64)}@${domain(189)}` })).toEqual([]);
    expect(refused({}, { email: `${"a".repeat(65)}@example.org` })).toEqual(["donor.email"]);
    expect(refused({}, { email: `ana@${domain(251)}` })).toEqual(["donor.email"]);
    expect(refused({}, { first_name: "   " })).toEqual(["donor.first_name"]);
    expect(refused({}, { phone: "268 555 1234" })).toEqual(["donor.phone"]);
    // A form that asks no phone has no phone rule, and sends no phone: one would be the proxy's to judge.
    expect(refusedPathsWith({ ...GOOD, donor: { ...GOOD.donor, phone: "268 555 1234" } })).toEqual([]);
    expect(refusedPathsWith({ ...GOOD, dedication: { kind: "memory", name: "Jane <Doe>" } })).toEqual([]);
    expect(refused({ sms_opt_in_accepted: true, sms_consent_text: "x".repeat(CONSENT_TEXT_MIN) })).toEqual([
      "donor.phone",
    ]);
    expect(refused({ dedication: { kind: "memory", name: "Jane <Doe>" } })).toEqual(["dedication.name"]);
    // The message and the dedication's line share the memo the service keeps.
    expect(
      refused({
        memo: "m".repeat(MEMO_MAX),
        dedication: { kind: "honor", name: "n".repeat(DEDICATION_NAME_MAX) },
      }),
    ).toEqual([]);
    expect(refused({ memo: "m".repeat(MEMO_MAX + 1) })).toEqual(["memo"]);
    expect(refused({ keyword: undefined })).toEqual(["keyword"]);
    expect(refused({ source: "spring-gala" })).toEqual([]);
    // One name field (`fields="full-name"`): full_name alone, named when it is blank.
    const fullName = (full_name: string) =>
      checkRefuses({ ...GOOD, donor: { full_name, email: GOOD.donor.email } });
    expect(fullName("Grace Brewster Hopper")).toEqual([]);
    expect(fullName("   ")).toEqual(["donor.full_name"]);
  });
});
