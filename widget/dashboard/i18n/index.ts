import { commonEn, designerEn, panelsEn } from "./en";
import { commonEs, designerEs, panelsEs } from "./es";

/** The languages the dashboard speaks; English when its page asks for another. */
export type DashboardLanguage = "en" | "es";
/** The words of the panels at /dashboard, with what both pages say. */
export type PanelWords = typeof commonEn & typeof panelsEn;
/** The words of the form designer at /dashboard/forms, with what both pages say. */
export type DesignerWords = typeof commonEn & typeof designerEn;

/** The page's language, as the proxy wrote it on its `main` (data-lang). */
export function languageOf(main: HTMLElement): DashboardLanguage {
  return main.dataset.lang === "es" ? "es" : "en";
}

/**
 * The panels' words in a language (each page's function names only its own sections, so its
 * script holds no other page's words).
 *
 * @example
 * const t = panelWords("es"); // t.title: "Cómo van los donativos"
 */
export function panelWords(language: DashboardLanguage): PanelWords {
  return language === "es" ? { ...commonEs, ...panelsEs } : { ...commonEn, ...panelsEn };
}

/** The form designer's words in a language. */
export function designerWords(language: DashboardLanguage): DesignerWords {
  return language === "es" ? { ...commonEs, ...designerEs } : { ...commonEn, ...designerEn };
}
