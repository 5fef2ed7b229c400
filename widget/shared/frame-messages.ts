import { UNREACHABLE, isErrorCode } from "../../contract/errors";
import type { FromFrameMessage, ToFrameMessage } from "../../contract/frame";
import { isFormStep } from "../../contract/form-steps";
import { LAST4_PATTERN } from "../../contract/request-patterns";
import {
  isBoolean,
  isFieldErrors,
  isFilled,
  isFiniteNumber,
  isObject,
  isText,
  oneOf,
  optional,
  pattern,
  readShape,
  type Check,
  type Shape,
} from "./checks";

/*
 * The card frame's messages, read as contract/frame.ts's schemas read them. Both ends check
 * them by hand rather than with zod, which keeps the frame's script a few kilobytes;
 * widget/readers.test.ts holds these readers to the schemas. Their shapes are made by pure calls,
 * so a bundle that reads one way only (the page's, the frame's) leaves the other's shapes out.
 */

const TO_FRAME: Record<string, Shape> = {
  "givekit:tokenize": { id: isFilled },
  "givekit:reset": {},
  "givekit:focus": {},
  "givekit:start": {},
  "givekit:locale": { locale: isText },
  "givekit:theme": {
    text: /* @__PURE__ */ optional(isText),
    font: /* @__PURE__ */ optional(isText),
    size: /* @__PURE__ */ optional(isText),
    accent: /* @__PURE__ */ optional(isText),
    radius: /* @__PURE__ */ optional(isText),
    width: /* @__PURE__ */ optional(isFiniteNumber),
    channel: /* @__PURE__ */ optional(isText),
  },
  "givekit:step": {
    step: /* @__PURE__ */ optional(isFormStep),
    code: /* @__PURE__ */ optional(isText),
    field: /* @__PURE__ */ optional(isText),
  },
};

const isWait: Check = (value) => isFiniteNumber(value) && (value as number) >= 0;

const isTokenErrorCode: Check = (value) => isErrorCode(value) || value === UNREACHABLE;

const FROM_FRAME: Record<string, Shape> = {
  "givekit:frame-ready": {},
  "givekit:submit": {},
  "givekit:resize": { height: isFiniteNumber },
  "givekit:card-state": { complete: isBoolean, brand: isText },
  "givekit:token": {
    id: isFilled,
    token: isFilled,
    brand: isText,
    last4: /* @__PURE__ */ pattern(LAST4_PATTERN),
  },
  "givekit:token-error": {
    id: isFilled,
    code: isTokenErrorCode,
    errors: /* @__PURE__ */ optional(isFieldErrors),
    retryAfterS: /* @__PURE__ */ optional(isWait),
  },
};

/** The message `data` is, by its `type` and that type's shape; null for anything else. */
function readMessage<T>(data: unknown, shapes: Record<string, Shape>): T | null {
  const type = isObject(data) ? data.type : undefined;
  if (typeof type !== "string" || !Object.hasOwn(shapes, type)) return null;
  return readShape<T>(data, { type: oneOf([type]), ...shapes[type] });
}

/** A message from the page to the frame, or null. */
export const readToFrameMessage = (data: unknown) => readMessage<ToFrameMessage>(data, TO_FRAME);

/** A message from the frame to the page, or null. Never more than the contract allows. */
export const readFromFrameMessage = (data: unknown) => readMessage<FromFrameMessage>(data, FROM_FRAME);
