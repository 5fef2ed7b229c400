import { isRtl, localeOf, messagesFor } from "../i18n";

/** Shown instead of a broken form when the element is misconfigured. */
export function Fallback({ lang }: { lang: string | null }) {
  const t = messagesFor(lang);
  return (
    <p
      class="gk-fallback"
      role="note"
      part="fallback"
      lang={localeOf(lang)}
      dir={isRtl(localeOf(lang)) ? "rtl" : "ltr"}
    >
      {t.common.unavailable}
    </p>
  );
}
