/** Request validation with the contract's schemas: failures become 400 validation_failed with per-field errors. */
import type * as z from "zod/mini";
import { fieldErrors } from "../contract/error-schemas";
import { ProblemError } from "./problem";

/**
 * @example
 * const donation = validate(DonationRequestSchema, c.get("body"));
 */
export function validate<S extends z.ZodMiniType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new ProblemError(
    "validation_failed",
    "Some fields are missing or not valid.",
    fieldErrors(parsed.error.issues),
  );
}

/** A plain JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
