import { describe, expect, it } from "vitest";
import { DISPLAY_WORDS } from "../../contract/display-words";
import { LOCALES, type Locale } from "../../contract/locales";
import { bundledMessages } from "./bundled";
import type { Messages } from ".";
import { en } from "./en";
import { frameEn } from "./frame-en";
import { pseudoLocalize } from "./pseudo";

/** The card frame's catalogs (each fetched by its address in the frame: widget/frame/start.ts). */
const FRAME_CATALOGS: Record<string, Record<string, unknown>> = import.meta.glob("./frame-*.ts", {
  eager: true,
});

/**
 * Text a translation may share with the English, and only these: names (the card brands) and
 * the words a language takes as they are ("E-mail" in Portuguese, "Email" in Vietnamese and
 * Tagalog, "Options" and "Message" in French).
 */
const SAME_AS_ENGLISH = new Set([
  "",
  "Visa",
  "Mastercard",
  "American Express",
  "Discover",
  "E-mail",
  "Email",
  "Options",
  "Message",
]);

/** Stand-ins for a message's arguments, found again in what it returns. */
const marker = (index: number) => `⟦${index}⟧`;

type Walked = [path: string, value: unknown][];
function walk(value: unknown, path = ""): Walked {
  if (typeof value === "function" || typeof value === "string" || value instanceof RegExp)
    return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((item, index) => walk(item, `${path}[${index}]`));
  return Object.entries(value as object).flatMap(([key, item]) => walk(item, path ? `${path}.${key}` : key));
}

/** The markers a message shows, called with one for each of its arguments. */
function placeholders(message: (...args: string[]) => string, arity: number): string[] {
  const text = message(...Array.from({ length: arity }, (_, index) => marker(index)));
  return Array.from({ length: arity }, (_, index) => marker(index)).filter((mark) => text.includes(mark));
}

/** Each difference between a catalog and the English one: a key missing or extra, a placeholder lost or added, text left in English. */
function differences(english: unknown, translated: unknown): string[] {
  const theirs = new Map(walk(translated));
  const ours = walk(english);
  const problems = [...theirs.keys()]
    .filter((path) => !ours.some(([own]) => own === path))
    .map((path) => `${path}: not in the English catalog`);
  for (const [path, value] of ours) {
    const other = theirs.get(path);
    if (other === undefined) problems.push(`${path}: missing`);
    else if (typeof value !== typeof other || value instanceof RegExp !== other instanceof RegExp)
      problems.push(`${path}: a ${typeof other}, not a ${typeof value}`);
    else if (typeof value === "function") {
      const arity = Math.max(value.length, (other as () => string).length);
      const want = placeholders(value as (...args: string[]) => string, arity);
      const got = placeholders(other as (...args: string[]) => string, arity);
      if (want.join() !== got.join())
        problems.push(`${path}: placeholders ${got.join(" ")}, not ${want.join(" ")}`);
      const sample = Array.from({ length: arity }, (_, index) => marker(index));
      const text = (other as (...args: string[]) => string)(...sample);
      if (text === (value as (...args: string[]) => string)(...sample) && !SAME_AS_ENGLISH.has(text))
        problems.push(`${path}: the English text`);
    } else if (typeof value === "string" && value === other && !SAME_AS_ENGLISH.has(value))
      problems.push(`${path}: the English text "${value}"`);
  }
  return problems;
}

const TRANSLATED = LOCALES.filter((locale): locale is Exclude<Locale, "en"> => locale !== "en");

describe("every catalog against the English one", () => {
  it.each(TRANSLATED)(
    "%s: the elements' catalog has every key, the same placeholders, no English",
    async (locale) => {
      expect(differences(en, await bundledMessages(locale))).toEqual([]);
    },
  );

  it.each(TRANSLATED)("%s: the card frame's catalog", async (locale) => {
    const catalog = Object.values(FRAME_CATALOGS[`./frame-${locale}.ts`]!)[0] as typeof frameEn;
    expect(differences(frameEn, catalog)).toEqual([]);
  });

  it.each(TRANSLATED)("%s: the room display's words", (locale) => {
    expect(differences(DISPLAY_WORDS.en, DISPLAY_WORDS[locale])).toEqual([]);
  });

  it.each(LOCALES)("%s: counts read in the language's plural forms, never empty", async (locale) => {
    const messages = (await bundledMessages(locale)) as Messages;
    for (const count of [0, 1, 2, 3, 5, 11, 21, 100, 1234]) {
      for (const text of [
        messages.common.fixErrors(count),
        messages.goal.donors(count),
        messages.donate.peerCount(count),
        DISPLAY_WORDS[locale].donors(count),
      ])
        expect(text.trim()).not.toBe("");
    }
  });

  it("Russian and Arabic counts change with the number, as their grammar asks", async () => {
    const ru = (await bundledMessages("ru")) as Messages;
    expect([1, 3, 5, 21].map((count) => ru.goal.donors(count))).toEqual([
      "1 жертвователь",
      "3 жертвователя",
      "5 жертвователей",
      "21 жертвователь",
    ]);
    const ar = (await bundledMessages("ar")) as Messages;
    expect(
      new Set([1, 2, 3, 11, 100].map((count) => ar.donate.peerCount(count).replace(/\d+/, "#"))).size,
    ).toBe(4);
  });

  it("catches what it is for: a lost placeholder, an extra one, a missing key, English left in", () => {
    const broken = {
      ...en,
      goal: {
        ...en.goal,
        raised: () => "raised",
        ofGoal: (goal: string, extra: string) => `${goal} ${extra}`,
      },
      common: { ...en.common, optional: "optional" },
      button: { label: "Donner" },
    };
    expect(differences(en, broken)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^goal\.raised: placeholders/),
        expect.stringMatching(/^goal\.ofGoal: placeholders/),
        expect.stringMatching(/^common\.optional: the English text/),
        "button.close: missing",
      ]),
    );
  });
});

describe("the pseudo-language", () => {
  it("accents every message and makes it at least 40 % longer, its placeholders kept", () => {
    const pseudo = pseudoLocalize(en);
    expect(differences(en, pseudo).filter((problem) => !problem.endsWith("English text"))).toEqual([]);
    for (const [path, value] of walk(en)) {
      if (typeof value !== "string" || value === "") continue;
      const text = walk(pseudo).find(([other]) => other === path)![1] as string;
      expect(text.length, path).toBeGreaterThanOrEqual(Math.ceil(value.length * 1.4));
      expect(text, path).not.toMatch(/[aeiouAEIOU]/);
    }
    expect(pseudo.donate.submit("$25.00", "monthly")).toContain("$25.00");
  });
});
