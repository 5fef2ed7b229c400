import type { ErrorCode } from "../../contract/errors";
import type { FromFrameMessage, ToFrameMessage } from "../../contract/frame";

/*
 * The card frame's messages, read as contract/frame.ts's types. Both ends check them by hand
 * rather than with the zod schemas, which keeps the frame's script a few kilobytes; every
 * field is checked all the same, and anything else is dropped.
 */

type Fields = Record<string, unknown>;
export const isObject = (data: unknown): data is Fields => typeof data === "object" && data !== null;
const isText = (value: unknown): value is string => typeof value === "string" && value.length > 0;
/** One of the API's error codes, as far as a receiver can tell: a snake_case word. */
export const isCode = (value: unknown): value is ErrorCode =>
  typeof value === "string" && /^[a-z_]{1,40}$/.test(value);

/** Per-field error messages (field → messages), as the API and the frame send them. */
export function readErrors(value: unknown): Record<string, string[]> | undefined {
  if (!isObject(value)) return undefined;
  const errors: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(value)) {
    if (Array.isArray(messages)) errors[field] = messages.map(String);
  }
  return errors;
}

/** A message from the page to the frame, or null. */
export function readToFrameMessage(data: unknown): ToFrameMessage | null {
  if (!isObject(data)) return null;
  const { type, id } = data;
  if (type === "givekit:tokenize") return isText(id) ? { type, id } : null;
  if (type === "givekit:reset" || type === "givekit:focus") return { type };
  return null;
}

/** A message from the frame to the page, or null. Never more than the contract allows. */
export function readFromFrameMessage(data: unknown): FromFrameMessage | null {
  if (!isObject(data)) return null;
  const { type, id } = data;
  switch (type) {
    case "givekit:frame-ready":
    case "givekit:submit":
      return { type };
    case "givekit:resize":
      return typeof data.height === "number" && Number.isFinite(data.height)
        ? { type, height: data.height }
        : null;
    case "givekit:card-state":
      return typeof data.complete === "boolean" && typeof data.brand === "string"
        ? { type, complete: data.complete, brand: data.brand }
        : null;
    case "givekit:token": {
      const { token, brand, last4 } = data;
      return isText(id) &&
        isText(token) &&
        typeof brand === "string" &&
        typeof last4 === "string" &&
        /^\d{4}$/.test(last4)
        ? { type, id, token, brand, last4 }
        : null;
    }
    case "givekit:token-error": {
      if (!isText(id) || !isCode(data.code)) return null;
      const errors = readErrors(data.errors);
      return errors ? { type, id, code: data.code, errors } : { type, id, code: data.code };
    }
    default:
      return null;
  }
}
