import { addMessages, type Catalog, type Locale } from "../i18n";
import { asksFor, type DonateProps } from "./base/attributes";
import { countryList } from "./donor/country-field";
import { monthlyPrompt as monthlyInvitation } from "./gift/monthly-prompt";
import { dedication } from "./options/dedication-fields";
import { rest as restOfForm } from "./rest";

/**
 * What the form says after its first step in `locale`: English's a chunk beside later.ts; another
 * language's by its address beside this chunk, assets/donate-later-LOCALE-VERSION.js
 * (vite.config.ts), rather than a table of every language's file in every English form.
 */
const laterWords = (locale: Locale): Promise<{ messages: Catalog }> => {
  if (locale === "en") return import("../chunks/messages/donate-later-en");
  // A name apart, so the build leaves the address to the page (not a glob of the files).
  const file = `donate-later-${locale}-${__GIVEKIT_CATALOGS__}.js`;
  return import(/* @vite-ignore */ new URL(file, import.meta.url).href);
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
    addMessages(locale, "donateLater", () => laterWords(locale)),
    ...extras.map((extra) => extra && extra()),
  ]);
  return Object.assign({}, later, ...parts) as Later;
}
