import { addMessages, type Catalog, type Locale } from "../i18n";
import { asksFor, type DonateProps } from "./base/attributes";
import { countryList } from "./donor/country-field";
import { monthlyPrompt as monthlyInvitation } from "./gift/monthly-prompt";
import { dedication } from "./options/dedication-fields";
import { rest as restOfForm } from "./rest";

/** What the form says after its first step, by language: fetched beside later.ts. */
const LATER_WORDS: Record<Locale, () => Promise<{ messages: Catalog }>> = {
  en: () => import("../chunks/messages/donate-later-en"),
  es: () => import("../chunks/messages/donate-later-es"),
  fr: () => import("../chunks/messages/donate-later-fr"),
  "pt-BR": () => import("../chunks/messages/donate-later-pt-BR"),
  "zh-Hans": () => import("../chunks/messages/donate-later-zh-Hans"),
  "zh-Hant": () => import("../chunks/messages/donate-later-zh-Hant"),
  vi: () => import("../chunks/messages/donate-later-vi"),
  tl: () => import("../chunks/messages/donate-later-tl"),
  ko: () => import("../chunks/messages/donate-later-ko"),
  ar: () => import("../chunks/messages/donate-later-ar"),
  ru: () => import("../chunks/messages/donate-later-ru"),
  ht: () => import("../chunks/messages/donate-later-ht"),
};

/**
 * The parts of the rest of the form only some elements use, a chunk each. Those with a
 * component (the country list, a dedication, the monthly invitation) are fetched as the lazy
 * module their component is rendered from (base/lazy.ts), so it shows at once where it is.
 */
type Extras = typeof import("./donor/CountryField") &
  typeof import("./donor/phone-rule") &
  typeof import("./gift/MonthlyPrompt") &
  typeof import("./options/dedication") &
  typeof import("./outcome/data-layer");

/** widget/donate/later.ts's exports, with those of the extras the element turned on (the others absent). */
export type Later = typeof import("./later") & Partial<Extras>;

/** Fetches an extra (or, for one the element leaves off, nothing). */
type Extra = false | (() => Promise<Partial<Extras>>);

/** The extras an element's attributes turn on, fetched beside later.ts. */
export const extrasFor = ({ fields, monthlyPrompt, dataLayer }: DonateProps): Extra[] => [
  // The address's country list.
  asksFor(fields, "address") && countryList.preload,
  // The phone rule, for the request's check.
  asksFor(fields, "phone") && (() => import("./donor/phone-rule")),
  // A dedication's fields, model and part of the request's check.
  asksFor(fields, "dedication") && dedication.preload,
  // The monthly invitation.
  monthlyPrompt !== null && monthlyInvitation.preload,
  // The GA4 purchase for `window.dataLayer`.
  dataLayer && (() => import("./outcome/data-layer")),
];

/**
 * widget/donate/later.ts and its words in `locale`, with `extras` beside them: each fetched once
 * (the module by its lazy module, the words by the catalog), tried again after a failed load at
 * the next need.
 */
export async function loadLater(locale: Locale, extras: readonly Extra[] = []): Promise<Later> {
  const [later, , ...parts] = await Promise.all([
    restOfForm.preload(),
    addMessages(locale, "donateLater", LATER_WORDS[locale]),
    ...extras.map((extra) => extra && extra()),
  ]);
  return Object.assign({}, later, ...parts) as Later;
}
