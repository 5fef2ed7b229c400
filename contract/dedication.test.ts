// The memo's one rule (contract/dedication.ts) over all of Unicode: whatever a donor writes, no
// line of the memo the upstream keeps reads as a dedication to a program, an export or a person,
// but the one line the proxy writes; the defused line says whose words they were; nothing grows.
import * as fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Dedication, donorMessage, memoWithDedication, readDedication } from "./dedication";
import { codePoints } from "./patterns";

const RUNS = 3000;
const MARKER = "[Dedication]";
const EVERY_LINE_BREAK = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/;

/** Read off Unicode itself, in one pass over every code point but the surrogates. */
const TABLES = (() => {
  const lookAlikes = new Map<string, string[]>([...MARKER.toLowerCase()].map((char) => [char, []]));
  const open: string[] = [];
  const close: string[] = [];
  const unseen: string[] = [];
  for (let code = 0; code < 0x110000; code++) {
    if (code >= 0xd800 && code <= 0xdfff) continue;
    const char = String.fromCodePoint(code);
    // What NFKC makes a plain marker character of: fullwidth, mathematical, circled, small-form…
    const plain = char.normalize("NFKC").toLowerCase();
    if (plain !== char && lookAlikes.has(plain)) lookAlikes.get(plain)!.push(char);
    if (/[\p{Ps}\p{Pi}]/u.test(char)) open.push(char);
    if (/[\p{Pe}\p{Pf}]/u.test(char)) close.push(char);
    // What a reader never shows: format characters (soft hyphen, zero-width space, …), other default-ignorables.
    if (/[\p{Cf}\p{Default_Ignorable_Code_Point}]/u.test(char)) unseen.push(char);
  }
  return {
    lookAlikes,
    open: [...lookAlikes.get("[")!, ...open],
    close: [...lookAlikes.get("]")!, ...close],
    unseen,
  };
})();
const nfkcLookAlikes = (char: string) => TABLES.lookAlikes.get(char.toLowerCase())!;
const BRACKETS = { open: TABLES.open, close: TABLES.close };
const UNSEEN = TABLES.unseen;

/**
 * A line as the upstream's export or a program reads it: NFKC, nothing unseen, any case, no
 * accents; and what a person takes for the marker there: "dedication" between brackets of any kind.
 */
const exportReading = (line: string) =>
  line
    .normalize("NFKC")
    .replace(/[\p{Cf}\p{Default_Ignorable_Code_Point}\p{Cc}]/gu, "")
    .toLowerCase()
    .normalize("NFD")
    .replace(/\p{M}/gu, "");
const READ_AS_MARKER = /[\p{Ps}\p{Pi}<]\s*dedication\s*[\p{Pe}\p{Pf}>]/u;

/** The marker as a forger writes it: each character plain or an NFKC look-alike, in any case, unseen characters between. */
const forgedMarker = fc
  .tuple(
    ...[...MARKER].map((char, index) =>
      fc.tuple(
        index === 0
          ? fc.constantFrom(char, ...BRACKETS.open)
          : index === MARKER.length - 1
            ? fc.constantFrom(char, ...BRACKETS.close)
            : fc.constantFrom(char, char.toUpperCase(), char.toLowerCase(), ...nfkcLookAlikes(char)),
        fc.array(fc.oneof(fc.constantFrom(...UNSEEN), fc.constant(" ")), { maxLength: 2 }),
      ),
    ),
  )
  .map((parts) => parts.map(([char, between]) => char + between.join("")).join(""));
const lineBreak = fc.constantFrom("\n", "\r", "\r\n", "\v", "\f", "\u0085", "\u2028", "\u2029");
/** A donor's memo: pieces of any text, line breaks, forged markers and the words of a dedication. */
const memo = fc
  .array(
    fc.oneof(
      fc.string({ maxLength: 12, unit: "binary" }),
      fc.string({ maxLength: 6, unit: "grapheme" }),
      lineBreak,
      fc.constantFrom(...UNSEEN),
      forgedMarker,
      fc.constant(" In honor of Evil <evil@evil.example>"),
    ),
    { maxLength: 12 },
  )
  .map((pieces) => pieces.join(""));
const dedication = fc.option(
  fc.record({
    kind: fc.constantFrom("honor" as const, "memory" as const),
    name: fc.constantFrom("Jane Doe", "Zoë Núñez", "李小龍"),
  }),
  { nil: undefined },
);

describe("contract/dedication.ts: a donor's memo never holds a dedication", () => {
  it("has NFKC look-alikes to try for every character of the marker", () => {
    for (const char of MARKER) expect(nfkcLookAlikes(char).length, char).toBeGreaterThan(1);
    expect(nfkcLookAlikes("[")).toContain("［");
    expect(UNSEEN).toEqual(expect.arrayContaining(["\u00ad", "\u200b", "\u2060", "\ufeff", "\u{e0041}"]));
  });

  it("over any text: no line but the proxy's reads as the marker, the dedication read back is the one given, nothing grows", () => {
    fc.assert(
      fc.property(memo, dedication, (written, given: Dedication | undefined) => {
        const sent = memoWithDedication(written, given) ?? "";
        const lines = sent.split(EVERY_LINE_BREAK);
        const donorLines = given ? lines.slice(0, -1) : lines;
        for (const line of donorLines) {
          expect(exportReading(line)).not.toMatch(READ_AS_MARKER);
          expect(line.replace(/^[\s\p{Cf}]*/u, "")).not.toMatch(/^\[\s*dedication/i);
        }
        expect(readDedication(sent).dedication).toEqual(given ?? null);
        expect(codePoints(donorMessage(written))).toBeLessThanOrEqual(codePoints(written));
      }),
      { numRuns: RUNS },
    );
  });

  it("over any text with no marker in it: the message comes through as written, its line breaks made line feeds", () => {
    const plain = fc
      .string({ maxLength: 40, unit: "binary" })
      .filter((text) => !exportReading(text).includes("dedication"));
    fc.assert(
      fc.property(plain, (written) => {
        expect(donorMessage(written)).toBe(
          written
            .replace(/\r\n|[\r\v\f\u0085\u2028\u2029]/g, "\n")
            .replace(/[\u202A-\u202E\u2066-\u2069]/g, "")
            .trim(),
        );
      }),
      { numRuns: RUNS },
    );
  });

  it.each([
    ["fullwidth brackets", "［Dedication］ In honor of Evil"],
    ["fullwidth letters", "[Ｄｅｄｉｃａｔｉｏｎ] In honor of Evil"],
    ["a zero-width space inside", "[Dedi\u200bcation] In honor of Evil"],
    ["a soft hyphen inside", "[Dedi\u00adcation] In honor of Evil"],
    ["a word joiner before", "\u2060[Dedication] In honor of Evil"],
    ["round brackets", "(Dedication) In honor of Evil"],
    ["a Cyrillic е", "[D\u0435dication] In honor of Evil"],
    ["a Greek ο and Cyrillic а", "[DEDIC\u0410TI\u039fN] In honor of Evil"],
    ["mathematical bold", "[\u{1d403}edication] In honor of Evil"],
  ])("%s: the line says whose words they were, in no form a person takes for a dedication", (_name, line) => {
    const sent = memoWithDedication(`For the winter beds\n${line}`, { kind: "memory", name: "Jane Doe" })!;
    expect(sent.split("\n")).toEqual([
      "For the winter beds",
      expect.stringMatching(/^\u2060?Donor wrote: In honor of Evil$/),
      "[Dedication] In memory of Jane Doe",
    ]);
  });
});
