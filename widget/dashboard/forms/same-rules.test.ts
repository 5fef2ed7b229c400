// The designer's check of a design and the element's reading of the same attributes are one rule
// (contract/element-rules.ts): over values near and far from valid, the element refuses exactly
// what the designer names, in the same words (`the "limit" attribute must be …` beside the
// designer's `must be …`).
import * as fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { PRESET_EXPECTED } from "../../../contract/element-rules";
import { checkDesign, type FormElement } from "../../../contract/saved-forms";
import { readDonateAttributes } from "../../donate/base/attributes";
import { readGoalAttributes } from "../../goal/element";
import { readLeaderboardAttributes } from "../../leaderboard/element";
import { readOptinAttributes } from "../../optin/attributes";
import { readWallAttributes } from "../../wall/element";

const CAMPAIGN = { shortcode: "71777", keyword: "HOPE" };
const OPTIN = {
  "program-name": "Hope Shelter Alerts",
  "terms-url": "https://hope.example/sms-terms",
  "privacy-url": "https://hope.example/privacy",
};

/** What the designer says of `name` (undefined: nothing), with the other attributes as given. */
function designerSays(element: FormElement, attributes: Record<string, string>, name: string) {
  const problems = checkDesign(
    { element, ...CAMPAIGN, attributes, theme: {} },
    {
      campaign: { min_amount: "1.00", max_amount: "10000.00", recurring_frequencies: ["monthly"] },
      allowedOrigins: [],
    },
  );
  return problems.find((problem) => problem.field === name)?.message;
}

/** What the element says of its attributes: its `[givekit]` problem, or undefined when it reads them. */
function elementSays(element: FormElement, attributes: Record<string, string>): string | undefined {
  const all: Record<string, string> = { proxy: "https://give.example.org", ...CAMPAIGN, ...attributes };
  const get = (name: string) => all[name] ?? null;
  if (element === "optin") {
    const read = readOptinAttributes(get);
    return read.ok ? undefined : read.problem;
  }
  const read =
    element === "goal"
      ? readGoalAttributes(get)
      : element === "wall"
        ? readWallAttributes(get)
        : readLeaderboardAttributes(get);
  return typeof read === "string" ? read : undefined;
}

/** Values near and far from what each attribute takes. */
const near = fc.oneof(
  fc.integer({ min: -5, max: 80 }).map(String),
  fc.constantFrom("15.5", " 20 ", "1e1", "", "abc", "0x10", "shown", "hidden", "teams", "fundraisers"),
  fc.constantFrom(
    "https://hope.example/give",
    "http://hope.example",
    "javascript:alert(1)",
    "ftp://x.example",
  ),
  fc.string({ maxLength: 8 }),
  fc.webUrl(),
);

const CASES: [FormElement, string, Record<string, string>][] = [
  ["goal", "refresh", {}],
  ["wall", "limit", {}],
  ["wall", "amounts", {}],
  ["leaderboard", "of", {}],
  ["leaderboard", "limit", {}],
  ["leaderboard", "refresh", {}],
  ["optin", "program-name", OPTIN],
  ["optin", "list", OPTIN],
];

describe("the designer and the element apply one rule to each attribute", () => {
  for (const [element, name, others] of CASES)
    it(`<givekit-${element} ${name}>: refused by both or neither, named in the same words`, () => {
      fc.assert(
        fc.property(near, (value) => {
          const attributes = { ...others, [name]: value };
          const designer = designerSays(element, attributes, name);
          const said = elementSays(element, attributes);
          expect(said).toBe(designer === undefined ? undefined : `the "${name}" attribute ${designer}.`);
        }),
        { numRuns: 300 },
      );
    });

  it("a donation form's amounts over 8 and its SMS box without its disclosure: the form's [givekit] line says what the designer names", () => {
    const warned = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      for (const [name, attributes] of [
        ["amounts", { amounts: "5,10,15,20,25,30,35,40,45" }],
        ["monthly-amounts", { "monthly-amounts": "5,10,15,20,25,30,35,40,45" }],
        ["fields", { fields: "sms", "program-name": "Hope Alerts" }],
      ] as const) {
        warned.mockClear();
        const designer = designerSays("donate", attributes, name);
        expect(designer).toBeDefined();
        const all: Record<string, string> = { proxy: "https://give.example.org", ...CAMPAIGN, ...attributes };
        const read = readDonateAttributes((attribute) => all[attribute] ?? null);
        expect(read.ok).toBe(true);
        const line = `[givekit] <givekit-donate>: ${name === "fields" ? "" : `"${name}" `}${designer}.`;
        expect(warned.mock.calls.map(([said]) => said)).toContain(line);
      }
    } finally {
      warned.mockRestore();
    }
  });

  it("a preset and what it does (`amounts`): the designer refuses the entry the form leaves out, in the same words", () => {
    const warned = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const entry = fc
      .tuple(
        fc.constantFrom("25", "10.50", "0", "abc", ""),
        fc.constantFrom(
          undefined,
          "",
          " ",
          "A week of meals",
          "x".repeat(80),
          "x".repeat(81),
          "🍲".repeat(80),
          "🍲".repeat(81),
        ),
      )
      .map(([amount, does]) => (does === undefined ? amount : `${amount}:${does}`));
    try {
      fc.assert(
        fc.property(entry, (value) => {
          warned.mockClear();
          const amounts = `50,${value}`;
          const designer = designerSays("donate", { amounts }, "amounts");
          const all: Record<string, string> = { proxy: "https://give.example.org", ...CAMPAIGN, amounts };
          expect(readDonateAttributes((attribute) => all[attribute] ?? null).ok).toBe(true);
          const said = warned.mock.calls
            .map(([line]) => String(line))
            .find((line) => line.includes('in "amounts"'));
          // An empty entry ("50,") the form passes over in silence; the designer, which writes the list, names it.
          const silent = value.trim() === "";
          expect(designer === undefined, `${value}: designer ${designer}, form ${said}`).toBe(
            said === undefined && !silent,
          );
          // Each names the entry's problem in the form's words.
          const formWords = said?.includes(
            `"${value.trim().slice(0, 40)}" in "amounts" is not ${PRESET_EXPECTED}`,
          );
          const designerWords = designer?.includes(`is not ${PRESET_EXPECTED}`);
          expect({ formWords, designerWords }).toEqual({
            formWords: said === undefined ? undefined : true,
            designerWords: designer === undefined ? undefined : true,
          });
        }),
        { numRuns: 200 },
      );
    } finally {
      warned.mockRestore();
    }
  });

  it("an address: the element takes every one the designer takes, in the same words when it refuses", () => {
    for (const [element, name, others] of [
      ["leaderboard", "donate-url", {}],
      ["optin", "terms-url", OPTIN],
      ["optin", "privacy-url", OPTIN],
    ] as const)
      fc.assert(
        fc.property(near, (value) => {
          const attributes = { ...others, [name]: value };
          const designer = designerSays(element, attributes, name);
          const said = elementSays(element, attributes);
          // The designer asks for a whole address (the snippet goes on another page); the element
          // also resolves one against its page's (`/give`), and reads an empty one as none.
          const agree =
            designer === undefined
              ? said === undefined
              : said === undefined || value.trim() === "" || said === `the "${name}" attribute ${designer}.`;
          expect(agree, `${name}=${JSON.stringify(value)}: designer ${designer}, element ${said}`).toBe(true);
        }),
        { numRuns: 300 },
      );
  });
});
