/**
 * The campaign tags of the page a gift came from (`utm_source`…), as analytics tools name them.
 * A nonprofit's appeal links carry them; givekit keeps them with the attempt and gives them to
 * the page's own analytics. Tags are free text a visitor can edit, so they are cleaned, never
 * refused: control characters dropped, spaces trimmed, cut to UTM_VALUE_MAX code points. No zod:
 * the widget reads them before zod has loaded.
 */
export const UTM_KEYS = ["utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content"] as const;
export type UtmKey = (typeof UTM_KEYS)[number];
export type Utm = Partial<Record<UtmKey, string>>;

/** The longest tag value kept, in code points; longer ones are cut. */
export const UTM_VALUE_MAX = 100;

// oxlint-disable-next-line no-control-regex -- control characters are what it removes.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/** A tag's value as givekit keeps it, or undefined when nothing is left of it. */
export function cleanUtmValue(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const kept = [...value.replace(CONTROL, "").trim()].slice(0, UTM_VALUE_MAX).join("").trim();
  return kept === "" ? undefined : kept;
}

/**
 * The tags in a query string or an object (anything else gives none), cleaned; other keys ignored.
 *
 * @example
 * readUtm(new URLSearchParams("?utm_source=newsletter&utm_medium=email&ref=x"))
 * // { utm_source: "newsletter", utm_medium: "email" }
 */
export function readUtm(source: unknown): Utm {
  const utm: Utm = {};
  const get =
    source instanceof URLSearchParams
      ? (key: string) => source.get(key)
      : typeof source === "object" && source !== null && !Array.isArray(source)
        ? (key: string) => (Object.hasOwn(source, key) ? (source as Record<string, unknown>)[key] : undefined)
        : () => undefined;
  for (const key of UTM_KEYS) {
    const value = cleanUtmValue(get(key));
    if (value !== undefined) utm[key] = value;
  }
  return utm;
}
