import type { CampaignResponse } from "../../../contract/api";
import { THEME_PROPERTIES } from "../../../contract/saved-form-names";
import type { DonateProps, readDonateAttributes } from "../base/attributes";
import type { AttributeResult } from "../../shared/attributes";

/** A theme value the element writes into its own style sheet: what the designer saves, and nothing that ends a declaration. */
const SAFE_VALUE = /^[\w\s#().,%'"-]{1,120}$/;

/**
 * The element's props with a saved form's design under its own attributes, read by `read` (the
 * element's readDonateAttributes): an attribute on the element wins over the same one saved (the
 * page's author keeps the last word).
 *
 * @example
 * withSavedForm(host, campaign, readDonateAttributes); // { ok: true, props: { amounts: [5000, 10000, 25000], … } }
 */
export function withSavedForm(
  host: HTMLElement,
  campaign: CampaignResponse,
  read: typeof readDonateAttributes,
): AttributeResult<DonateProps> {
  const saved = campaign.form?.attributes ?? {};
  return read((name) => host.getAttribute(name) ?? (Object.hasOwn(saved, name) ? saved[name]! : null));
}

/**
 * The saved theme as the element's custom properties, in a style sheet of the shadow root's own:
 * a `:host` rule, which any the page sets on the element outranks.
 */
export function adoptTheme(host: HTMLElement, campaign: CampaignResponse): void {
  const shadow = host.shadowRoot;
  const theme = campaign.form?.theme ?? {};
  if (!shadow) return;
  const declarations = Object.entries(THEME_PROPERTIES)
    .filter(([key]) => SAFE_VALUE.test(theme[key] ?? ""))
    .map(([key, property]) => `${property}:${theme[key]}`)
    .join(";");
  const [own] = shadow.adoptedStyleSheets;
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(`:host{${declarations}}`);
  shadow.adoptedStyleSheets = own ? [own, sheet] : [sheet];
}
