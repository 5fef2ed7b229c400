/**
 * Messages between the card frame (served by the proxy) and the widget on the host page.
 * Every receiver checks the sender's origin first and then parses with these schemas.
 */
import * as z from "zod/mini";
import { ErrorCodeSchema } from "./errors";

/** Parent → frame. */
export const ToFrameMessageSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("givekit:tokenize"), id: z.string() }),
  z.object({ type: z.literal("givekit:reset") }),
  z.object({ type: z.literal("givekit:focus") }),
]);
export type ToFrameMessage = z.infer<typeof ToFrameMessageSchema>;

/** Frame → parent. Never a card number or CVV: only the token, brand and last four. */
export const FromFrameMessageSchema = z.discriminatedUnion("type", [
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
    id: z.string(),
    token: z.string(),
    brand: z.string(),
    last4: z.string(),
  }),
  z.object({
    type: z.literal("givekit:token-error"),
    id: z.string(),
    code: ErrorCodeSchema,
    errors: z.optional(z.record(z.string(), z.array(z.string()))),
  }),
]);
export type FromFrameMessage = z.infer<typeof FromFrameMessageSchema>;
