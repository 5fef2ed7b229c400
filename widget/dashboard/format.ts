import type { DashboardLanguage } from "./i18n";

/** The panels' numbers, money and times in the page's language. */
export function formatsFor(language: DashboardLanguage) {
  const tag = language === "es" ? "es-US" : "en-US";
  const money = new Intl.NumberFormat(tag, { style: "currency", currency: "USD" });
  const whole = new Intl.NumberFormat(tag);
  const percent = new Intl.NumberFormat(tag, { style: "percent", maximumFractionDigits: 1 });
  const clock = new Intl.DateTimeFormat(tag, { hour: "numeric", minute: "2-digit", second: "2-digit" });
  const hour = new Intl.DateTimeFormat(tag, { hour: "numeric" });
  return {
    /** Cents in dollars. */
    cents: (cents: number) => money.format(cents / 100),
    /** An amount ("18240.00") in its currency, as the room display's figures come. */
    amount: (value: string, currency: string) =>
      new Intl.NumberFormat(tag, { style: "currency", currency }).format(Number(value)),
    whole: (n: number) => whole.format(n),
    percent: (share: number) => percent.format(share),
    /** A time of day to the second (ISO in). */
    clock: (iso: string) => clock.format(new Date(iso)),
    /** An hour's label on a chart or in a table (ISO in). */
    hour: (iso: string) => hour.format(new Date(iso)),
  };
}
export type Formats = ReturnType<typeof formatsFor>;
