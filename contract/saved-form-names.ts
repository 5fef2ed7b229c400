/**
 * A saved form's name and theme properties: what the element's saved-form chunk reads, apart from
 * contract/saved-forms.ts (which re-exports them) so that chunk imports nothing else.
 */

/** A saved form's name: what `form="…"` holds. */
export const FORM_NAME_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;
export const FORM_NAME_EXPECTED = "a slug such as year-end (a-z, 0-9, inner hyphens; at most 40)";
/**
 * The theme's custom properties a design may set, as the element reads them (widget/shared/host.css).
 * `background` is the page's colour behind the form: never applied, only what contrast is checked against.
 */
export const THEME_PROPERTIES = {
  accent: "--givekit-accent",
  text: "--givekit-text",
  font: "--givekit-font",
  size: "--givekit-font-size",
  radius: "--givekit-radius",
} as const;
