import * as fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { DonationRequestSchema } from "../../../contract/api";
import { CHANNEL_TAG_PATTERN } from "../../../contract/patterns";
import { readDonateAttributes, readFields } from "./attributes";

/** "refused" for a problem that names the `source` attribute; any other problem as it is. */
const namesSource = (problem: string) => (problem.includes('"source"') ? "refused" : problem);

const read = (attributes: Record<string, string>) => readDonateAttributes((name) => attributes[name] ?? null);

/** `monthly-prompt`'s value read, or "refused" when the whole element is. */
function prompt(value: string) {
  const result = read({
    proxy: "https://give.example.org",
    shortcode: "71777",
    keyword: "HOPE",
    "monthly-prompt": value,
  });
  return result.ok ? result.props.monthlyPrompt : "refused";
}

/** The fields a donate form reads in `locale`, with `fields` when given. */
const fieldsIn = (locale: string, fields?: string) => {
  const result = readDonateAttributes(
    (name) => ({ shortcode: "71777", keyword: "HOPE", locale, ...(fields && { fields }) })[name] ?? null,
  );
  return result.ok ? result.props.fields : null;
};

describe("<givekit-donate>'s attributes", () => {
  it("have defaults for everything but the campaign", () => {
    const result = read({ proxy: "https://give.example.org/", shortcode: "71777", keyword: "hope" });
    expect(result).toEqual({
      ok: true,
      props: {
        proxyUrl: "https://give.example.org",
        target: { shortcode: "71777", keyword: "HOPE" },
        formId: null,
        source: undefined,
        amounts: [2500, 5000, 10000, 25000],
        amountLabels: {},
        monthlyAmounts: null,
        defaultAmount: null,
        frequencies: ["once", "monthly"],
        defaultFrequency: "once",
        fundraiser: null,
        team: null,
        locale: "en",
        locales: null,
        heading: null,
        programName: null,
        termsUrl: null,
        privacyUrl: null,
        fields: {},
        layout: "steps",
        dataLayer: false,
        successUrl: null,
        coverFee: "optional",
        monthlyPrompt: null,
      },
    });
  });

  it("read every attribute", () => {
    const result = read({
      proxy: "https://give.example.org",
      "event-id": "2026-hope-walk",
      "event-type": "peer_campaign",
      "form-id": "form-hope-gala",
      source: "spring-gala",
      amounts: " 10, 20.50 ,40",
      "default-amount": "35",
      frequencies: "monthly,once",
      fundraiser: "101",
      team: "11",
      locale: "es-MX",
      locales: "es,en",
      heading: "Walk with us",
      "program-name": "Hope Alerts",
      "terms-url": "/sms-terms",
      "privacy-url": "https://hope.example.org/privacy",
    });
    expect(result.ok && result.props).toMatchObject({
      target: { event_id: "2026-hope-walk", event_type: "peer_campaign" },
      formId: "form-hope-gala",
      source: "spring-gala",
      amounts: [1000, 2050, 4000],
      defaultAmount: 3500,
      frequencies: ["monthly", "once"],
      defaultFrequency: "monthly",
      fundraiser: "101",
      team: "11",
      locale: "es",
      locales: "es,en",
      heading: "Walk with us",
      programName: "Hope Alerts",
      termsUrl: `${location.origin}/sms-terms`,
      privacyUrl: "https://hope.example.org/privacy",
    });
  });

  it.each([
    [{ "default-amount": "1e3" }, '"default-amount"'],
    [{ shortcode: "7" }, '"shortcode"'],
    [{ "default-frequency": "weekly" }, '"default-frequency"'],
    [{ heading: "   " }, '"heading"'],
    [{ "privacy-url": "data:text/html,hi" }, '"privacy-url"'],
    [{ "cover-fee": "sometimes" }, '"cover-fee"'],
    [{ source: "spring gala" }, '"source" attribute must be 1 to 32 letters, digits, - and _'],
    [{ source: "a".repeat(33) }, '"source"'],
  ])("name the bad one in %j", (bad, named) => {
    const result = read({ proxy: "https://give.example.org", shortcode: "71777", keyword: "HOPE", ...bad });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problem).toContain(named);
  });

  it("amounts with descriptions: a malformed entry is left out with a [givekit] line, the rest kept", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const result = read({
      proxy: "https://give.example.org",
      shortcode: "71777",
      keyword: "HOPE",
      amounts: "25: A week of meals ,0,abc,50,100:,250:Un mes de refugio",
      "monthly-amounts": "10:A meal a day,20,35",
    });
    expect(result.ok && result.props.amounts).toEqual([2500, 5000, 25000]);
    expect(result.ok && result.props.amountLabels).toEqual({
      2500: "A week of meals",
      25000: "Un mes de refugio",
    });
    expect(result.ok && result.props.monthlyAmounts).toEqual({
      amounts: [1000, 2000, 3500],
      labels: { 1000: "A meal a day" },
    });
    expect(warn.mock.calls.map(([line]) => line)).toEqual([
      '[givekit] <givekit-donate>: "0" in "amounts" is not an amount (with a description of at most 80 characters); it is left out.',
      '[givekit] <givekit-donate>: "abc" in "amounts" is not an amount (with a description of at most 80 characters); it is left out.',
      '[givekit] <givekit-donate>: "100:" in "amounts" is not an amount (with a description of at most 80 characters); it is left out.',
    ]);
  });

  it("amounts: past 8 the rest are left out; none good, the defaults", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const many = read({
      proxy: "https://give.example.org",
      shortcode: "71777",
      keyword: "HOPE",
      amounts: "1,2,3,4,5,6,7,8,9",
    });
    expect(many.ok && many.props.amounts).toEqual([100, 200, 300, 400, 500, 600, 700, 800]);
    const none = read({
      proxy: "https://give.example.org",
      shortcode: "71777",
      keyword: "HOPE",
      amounts: "0,x",
    });
    expect(none.ok && none.props.amounts).toEqual([2500, 5000, 10000, 25000]);
    expect(warn).toHaveBeenCalledWith(
      '[givekit] <givekit-donate>: "amounts" lists more than 8; the rest are left out.',
    );
  });

  it("need shortcode and keyword together, or event-id and event-type together", () => {
    const result = read({ proxy: "https://give.example.org", "event-id": "2026-hope-walk" });
    expect(!result.ok && result.problem).toContain('the "event-type" attribute is required');
  });

  it("cover-fee: each mode read as given", () => {
    for (const mode of ["off", "optional", "preselected", "required"])
      expect(
        read({ proxy: "https://give.example.org", shortcode: "71777", keyword: "HOPE", "cover-fee": mode }),
      ).toMatchObject({ ok: true, props: { coverFee: mode } });
  });

  it("monthly-prompt: empty is a third, a share, an amount; anything else left off with a [givekit] line", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    warn.mockClear();
    expect(prompt("")).toEqual({ share: 100 / 3 });
    expect(prompt(" 30% ")).toEqual({ share: 30 });
    expect(prompt("20")).toEqual({ cents: 2000 });
    expect(prompt("12.50")).toEqual({ cents: 1250 });
    expect(warn).not.toHaveBeenCalled();
    for (const bad of ["0%", "150%", "monthly", "-5", "0"]) expect(prompt(bad)).toBeNull();
    expect(warn).toHaveBeenCalledTimes(5);
    expect(warn).toHaveBeenCalledWith(
      '[givekit] <givekit-donate>: "monthly-prompt" must be empty, a share such as "30%" or an amount such as "20"; it is left off.',
    );
  });

  it("source: read as the request's schema reads it, or the element refused naming it", () => {
    const sourceSchema = DonationRequestSchema.shape.source;
    const values = fc.oneof(
      fc.stringMatching(CHANNEL_TAG_PATTERN),
      fc.string({ maxLength: 40 }),
      fc.constantFrom("spring.gala", " gala", "a".repeat(33), "galà", ""),
    );
    let taken = 0;
    fc.assert(
      fc.property(values, (source) => {
        const result = read({
          proxy: "https://give.example.org",
          shortcode: "71777",
          keyword: "HOPE",
          source,
        });
        const parsed = sourceSchema.safeParse(source);
        // Taken as the schema takes it, or the element refused with the attribute named.
        expect(result.ok ? result.props.source : namesSource(result.problem)).toBe(
          parsed.success ? parsed.data : "refused",
        );
        if (parsed.success) taken++;
      }),
      { numRuns: 2000 },
    );
    expect(taken).toBeGreaterThan(200);
  });

  it("Chinese and Korean forms ask for one full name unless the page lists fields of its own naming it", () => {
    expect(fieldsIn("zh-TW")).toEqual({ "full-name": false });
    expect(fieldsIn("ko", "phone")).toEqual({ phone: false, "full-name": false });
    expect(fieldsIn("vi")).toEqual({});
  });

  it('fields="full-name" turns on the one name field; an unknown entry is still named', () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(readFields("full-name, phone")).toEqual({ "full-name": false, phone: false });
    expect(readFields(" Full-Name ")).toEqual({ "full-name": false });
    expect(readFields("fullname")).toEqual({});
    expect(warn).toHaveBeenCalledWith('[givekit] <givekit-donate>: "fullname" in "fields" is not a field.');
    warn.mockRestore();
  });
});
