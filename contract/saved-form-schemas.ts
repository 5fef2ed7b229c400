/**
 * The dashboard's saved-form requests as zod schemas (the proxy's side; the rules a design's
 * values are held to are contract/saved-forms.ts's checkDesign, which the designer runs too).
 */
import * as z from "zod/mini";
import { KEYWORD_PATTERN, SHORTCODE_PATTERN } from "./patterns";
import { FORM_ATTRIBUTE_MAX, FORM_ELEMENTS } from "./saved-forms";

const Value = /* @__PURE__ */ z.string().check(z.maxLength(FORM_ATTRIBUTE_MAX));

export const FormDesignSchema = /* @__PURE__ */ z.strictObject({
  element: z.enum(FORM_ELEMENTS),
  shortcode: /* @__PURE__ */ z.string().check(z.regex(SHORTCODE_PATTERN)),
  keyword: /* @__PURE__ */ z.string().check(z.regex(KEYWORD_PATTERN)),
  attributes: z.record(z.string().check(z.maxLength(40)), Value),
  theme: z.record(z.string().check(z.maxLength(20)), Value),
});

/** PUT /dashboard/forms/{name}: the design, and the version it was made from (0: a new form). */
export const SaveFormRequestSchema = /* @__PURE__ */ z.strictObject({
  design: FormDesignSchema,
  after: /* @__PURE__ */ z.number().check(z.int(), z.nonnegative()),
});

/** POST /dashboard/forms/{name}/restore: the version to bring back, and the latest the staff saw. */
export const RestoreFormRequestSchema = /* @__PURE__ */ z.strictObject({
  version: /* @__PURE__ */ z.number().check(z.int(), z.positive()),
  after: /* @__PURE__ */ z.number().check(z.int(), z.positive()),
});
