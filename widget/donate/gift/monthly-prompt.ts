import { lazy, lazyModule } from "../base/lazy";

/** `monthly-prompt`'s invitation: an extra, fetched beside later.ts by a form that turns it on (load-later.ts). */
export const monthlyPrompt = lazyModule(() => import("./MonthlyPrompt"));
export const MonthlyPrompt = lazy(monthlyPrompt, "MonthlyPrompt");
