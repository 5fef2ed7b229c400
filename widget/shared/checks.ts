/**
 * The widget's readers of what the proxy and the card frame send: a value checked field by
 * field against a shape, as contract/'s zod schemas would check it, in a few hundred bytes
 * rather than zod's parsers. Each reader built from these is held to its schema by a property
 * test (widget/readers.test.ts): it accepts exactly what the schema accepts.
 */
import { codePoints, matches } from "../../contract/patterns";

export type Fields = Record<string, unknown>;
/** A check of one value. */
export type Check = (value: unknown) => boolean;
/** A check per field of an object. */
export type Shape = Record<string, Check>;

/** An object, as zod's object schemas take one (not null, not an array). */
export const isObject = (value: unknown): value is Fields =>
  typeof value === "object" && value !== null && !Array.isArray(value);
/** A plain object (what JSON and postMessage make), as zod's record schemas take one. */
export const isPlainObject = (value: unknown): value is Fields =>
  isObject(value) && [Object.prototype, null].includes(Object.getPrototypeOf(value));

export const isText: Check = (value) => typeof value === "string";
export const isFilled: Check = (value) => isText(value) && value !== "";
export const isBoolean: Check = (value) => typeof value === "boolean";
export const isFiniteNumber: Check = (value) => typeof value === "number" && Number.isFinite(value);
export { codePoints };
export const textUpTo =
  (max: number): Check =>
  (value) =>
    isText(value) && codePoints(value as string) <= max;
/** Text of `min` to `max` code points (once trimmed, with `trim`: as `z.trim()` and the checks after it count). */
export const textWithin =
  (min: number, max: number, trim = false): Check =>
  (value) => {
    if (typeof value !== "string") return false;
    const length = codePoints(trim ? value.trim() : value);
    return length >= min && length <= max;
  };
export const pattern =
  (regexp: RegExp): Check =>
  (value) =>
    matches(regexp, value);
export const oneOf =
  (values: readonly unknown[]): Check =>
  (value) =>
    values.includes(value);
export const optional =
  (check: Check): Check =>
  (value) =>
    value === undefined || check(value);
export const nullable =
  (check: Check): Check =>
  (value) =>
    value === null || check(value);
export const arrayOf =
  (check: Check): Check =>
  (value) =>
    Array.isArray(value) && value.every(check);
/** Field → messages, as the API and the frame send per-field errors. */
export const isFieldErrors: Check = (value) =>
  isPlainObject(value) && Object.values(value).every(arrayOf(isText));

/**
 * The fields of `value` that `shape` names, when each passes its check (and, when `strict`,
 * there is no other field); null otherwise.
 */
export function readShape<T>(value: unknown, shape: Shape, strict = false): T | null {
  if (!isObject(value)) return null;
  if (strict && Object.keys(value).some((key) => !Object.hasOwn(shape, key))) return null;
  const read: Fields = {};
  for (const key in shape) {
    if (!shape[key]!(value[key])) return null;
    if (value[key] !== undefined) read[key] = value[key];
  }
  return read as T;
}
