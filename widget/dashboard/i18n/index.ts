import { en } from "./en";
import { es } from "./es";

/** The staff dashboard's catalog (en.ts), its sections: `common`, `panels`, `designer`. */
export type DashboardMessages = typeof en;
/** The languages the dashboard speaks; English when its page asks for another. */
export type DashboardLanguage = "en" | "es";
/** The words of the panels at /dashboard, with what both pages say. */
export type PanelWords = DashboardMessages["common"] & DashboardMessages["panels"];
/** The words of the form designer at /dashboard/forms, with what both pages say. */
export type DesignerWords = DashboardMessages["common"] & DashboardMessages["designer"];

const CATALOGS: Record<DashboardLanguage, DashboardMessages> = { en, es };

/** The page's language, as the proxy wrote it on its `main` (data-lang). */
export function languageOf(main: HTMLElement): DashboardLanguage {
  return main.dataset.lang === "es" ? "es" : "en";
}

/**
 * One page's words in a language: its section and the common one.
 *
 * @example
 * const t = wordsFor("es", "panels"); // t.title: "Cómo van los donativos"
 */
export function wordsFor<S extends "panels" | "designer">(
  language: DashboardLanguage,
  section: S,
): DashboardMessages["common"] & DashboardMessages[S] {
  const catalog = CATALOGS[language];
  return { ...catalog.common, ...catalog[section] };
}
