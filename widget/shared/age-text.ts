/** How long ago a gift was given, in words, for the wall and the display. */

/** "3 minutes ago" in the element's language, from the gift's time. */
export function ageText(at: string, now: number, locale: string): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(at)) / 1000));
  const format = new Intl.RelativeTimeFormat(locale, { numeric: "auto" });
  if (!Number.isFinite(seconds) || seconds < 60) return format.format(0, "second");
  if (seconds < 3600) return format.format(-Math.floor(seconds / 60), "minute");
  if (seconds < 86_400) return format.format(-Math.floor(seconds / 3600), "hour");
  return format.format(-Math.floor(seconds / 86_400), "day");
}
