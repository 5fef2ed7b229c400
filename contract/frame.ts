/**
 * Messages between the card frame (served by the proxy) and the widget on the host page.
 * Every receiver checks the sender's origin first, then reads the message with
 * widget/shared/frame-messages.ts, which a property test holds to these schemas.
 */
import * as z from "zod/mini";
import { ERROR_CODES, UNREACHABLE } from "./errors";
import { FORM_STEPS } from "./form-steps";
import { LAST4_PATTERN } from "./request-patterns";

/** A message id: one per tokenize request, never empty. */
const Id = /* @__PURE__ */ z.string().check(z.minLength(1));
/** Per-field error messages, as the proxy's problems carry them. */
const FieldErrors = /* @__PURE__ */ z.record(z.string(), z.array(z.string()));

/** Parent → frame. */
export const ToFrameMessageSchema = /* @__PURE__ */ z.discriminatedUnion("type", [
  z.object({ type: z.literal("givekit:tokenize"), id: Id }),
  z.object({ type: z.literal("givekit:reset") }),
  z.object({ type: z.literal("givekit:focus") }),
  /** The donor came to the card: its first empty field takes the focus, no error shown. */
  z.object({ type: z.literal("givekit:start") }),
  /**
   * The donor chose another language in the form (its language switch): the frame redraws its
   * words in it, what was typed kept. The frame checks the tag itself (a catalog it has, else English).
   */
  z.object({ type: z.literal("givekit:locale"), locale: z.string() }),
  /**
   * The form's look, as computed on the page (widget/donate/card-port.ts `frameTheme`): sent by
   * message, not in the frame's address, so widget.js can open the frame before the form exists.
   */
  z.object({
    type: z.literal("givekit:theme"),
    text: z.optional(z.string()),
    font: z.optional(z.string()),
    size: z.optional(z.string()),
    accent: z.optional(z.string()),
    radius: z.optional(z.string()),
    /** The page's viewport width in CSS pixels: the frame counts the form's steps by its device class. */
    width: z.optional(z.number()),
    /** The element's channel tag, else the page's `utm_source`: the channel the steps are counted under. */
    channel: z.optional(z.string()),
  }),
  /**
   * What the donor did that the frame cannot see (widget/frame/form-events.ts counts it): a step
   * reached (`step`), or why the form stopped them: the attempt's `code` (`closed`: the dialog
   * holding the form was closed) and, for a refused field, the first such `field`.
   */
  z.object({
    type: z.literal("givekit:step"),
    step: z.optional(z.enum(FORM_STEPS)),
    code: z.optional(z.string()),
    field: z.optional(z.string()),
  }),
]);
export type ToFrameMessage = z.infer<typeof ToFrameMessageSchema>;

/** Frame → parent. Never a card number or CVV: only the token, brand and last four. */
export const FromFrameMessageSchema = /* @__PURE__ */ z.discriminatedUnion("type", [
  z.object({ type: z.literal("givekit:frame-ready") }),
  /** Enter in a card field: the page submits its form. */
  z.object({ type: z.literal("givekit:submit") }),
  z.object({ type: z.literal("givekit:resize"), height: z.number() }),
  z.object({
    type: z.literal("givekit:card-state"),
    complete: z.boolean(),
    brand: z.string(),
  }),
  z.object({
    type: z.literal("givekit:token"),
    id: Id,
    token: /* @__PURE__ */ z.string().check(z.minLength(1)),
    brand: z.string(),
    last4: /* @__PURE__ */ z.string().check(z.regex(LAST4_PATTERN)),
  }),
  z.object({
    type: z.literal("givekit:token-error"),
    id: Id,
    // The proxy's code, or UNREACHABLE when the frame could not reach the proxy.
    code: /* @__PURE__ */ z.enum([...ERROR_CODES, UNREACHABLE]),
    errors: z.optional(FieldErrors),
    // The proxy's Retry-After, in seconds, when it holds the card (rate_limited).
    retryAfterS: z.optional(/* @__PURE__ */ z.number().check(z.nonnegative())),
  }),
]);
export type FromFrameMessage = z.infer<typeof FromFrameMessageSchema>;
