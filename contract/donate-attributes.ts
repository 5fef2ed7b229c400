/**
 * `<givekit-donate>`'s attributes (widget/REFERENCE.md documents each): the element observes them,
 * `<givekit-button>` hands them on to the form it opens, and a design may set all but a page's own
 * (contract/saved-forms.ts FORM_ATTRIBUTES). One list, so an attribute the form gains is the
 * designer's too. Apart from their readers, so the button's chunk carries none.
 */
export const DONATE_ATTRIBUTES = [
  "proxy",
  "shortcode",
  "keyword",
  "event-id",
  "event-type",
  "form-id",
  "form",
  "source",
  "amounts",
  "monthly-amounts",
  "default-amount",
  "frequencies",
  "default-frequency",
  "fundraiser",
  "team",
  "locale",
  "locales",
  "heading",
  "program-name",
  "terms-url",
  "privacy-url",
  "fields",
  "layout",
  "data-layer",
  "success-url",
  "cover-fee",
  "monthly-prompt",
] as const;
/** The ones a page's snippet writes and a design does not: the campaign (or event), the proxy, the saved form itself. */
export const PAGE_OWN_ATTRIBUTES = [
  "proxy",
  "shortcode",
  "keyword",
  "event-id",
  "event-type",
  "form",
] as const;
