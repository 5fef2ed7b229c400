/**
 * The error schemas (zod): a code, a problem+json body, and zod's issues as `errors`. Apart
 * from errors.ts, so that the widget, which checks codes by hand, carries no zod for them.
 */
import * as z from "zod/mini";
import { ERROR_CODES } from "./errors";

export const ErrorCodeSchema = /* @__PURE__ */ z.enum(ERROR_CODES);

/** RFC 9457 problem details, with givekit's `code` and per-field `errors`. */
export const ProblemSchema = /* @__PURE__ */ z.looseObject({
  type: z.string(),
  title: z.string(),
  status: z.number(),
  detail: z.optional(z.string()),
  code: ErrorCodeSchema,
  errors: z.optional(z.record(z.string(), z.array(z.string()))),
});
export type Problem = z.infer<typeof ProblemSchema>;

/** Turns zod issues into `errors`: dotted field path → messages ("" for the whole body). */
export function fieldErrors(issues: readonly z.core.$ZodIssue[]): Record<string, string[]> {
  // A Map, so a field named "__proto__" is just a name.
  const errors = new Map<string, string[]>();
  for (const issue of issues) {
    const paths =
      issue.code === "unrecognized_keys"
        ? issue.keys.map((key) => [...issue.path, key].join("."))
        : [issue.path.join(".")];
    for (const path of paths) {
      const message = issue.code === "unrecognized_keys" ? "Unknown field." : issue.message;
      errors.set(path, [...(errors.get(path) ?? []), message]);
    }
  }
  return Object.fromEntries(errors);
}
