import type { Progress } from "../../contract/api";
import { CURRENCY_PATTERN, isAmount } from "../../contract/patterns";
import { isText, nullable, pattern, readShape, type Check } from "./checks";

/*
 * The progress answer, read as contract/api.ts's ProgressSchema reads it, by hand (zod's parsers
 * would be most of the goal element's chunk). widget/readers.test.ts holds it to the schema.
 */
const isCount: Check = (value) => Number.isSafeInteger(value);

const PROGRESS = {
  raised: isAmount,
  goal: nullable(isAmount),
  donors: isCount,
  currency: pattern(CURRENCY_PATTERN),
  updated_at: isText,
};

export function readProgress(body: unknown): Progress | null {
  return readShape<Progress>(body, PROGRESS);
}
