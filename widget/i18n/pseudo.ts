/**
 * The pseudo-language of the tests: every letter accented and every message 40 % longer, so a
 * string left in English stands out and a box too tight for a long translation overflows
 * (e2e/languages.spec.ts, widget/i18n/catalogs.test.ts). Arguments pass through untouched.
 */
const ACCENTED: Record<string, string> = {
  a: "á",
  e: "é",
  i: "í",
  o: "ö",
  u: "ü",
  c: "ç",
  n: "ñ",
  y: "ý",
  A: "Å",
  E: "É",
  I: "Î",
  O: "Ö",
  U: "Ü",
  C: "Ç",
  N: "Ñ",
  Y: "Ý",
};

/** "Donate" → "[Ðöñáté ·····]": accented, padded to 140 % and bracketed, so a cut end shows. */
export function pseudoText(text: string): string {
  if (!text) return text;
  const accented = text.replace(/[aeiouycnAEIOUYCN]/g, (letter) => ACCENTED[letter]!);
  const padding = "·".repeat(Math.max(1, Math.ceil(text.length * 0.4) - 2));
  return `[${accented} ${padding}]`;
}

/** A catalog in the pseudo-language: its strings and what its messages return, arguments kept. */
export function pseudoLocalize<T>(catalog: T): T {
  const convert = (value: unknown): unknown => {
    if (typeof value === "string") return pseudoText(value);
    if (typeof value === "function")
      return (...args: unknown[]) => {
        // Called with stand-ins, so only its own words take the accents; the arguments go back as given.
        const standIns = args.map((arg, index) => (typeof arg === "string" ? `⟪${index}⟫` : arg));
        const text = pseudoText((value as (...args: unknown[]) => string)(...standIns));
        return text.replace(/⟪(\d+)⟫/g, (_, index: string) => String(args[Number(index)]));
      };
    if (value instanceof RegExp || value === null || typeof value !== "object") return value;
    if (Array.isArray(value)) return value.map(convert);
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, convert(item)]));
  };
  return convert(catalog) as T;
}
