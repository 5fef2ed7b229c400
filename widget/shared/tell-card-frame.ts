import type { ToFrameMessage } from "../../contract/frame";
import { cardFrameIn } from "./card-frame";

/**
 * Posts `message` to `host`'s card frame, if it has one (a frame still loading does not hear it),
 * addressed to the origin of the frame's own address: the proxy's. Apart from card-frame.ts, so
 * only the code that tells (the rest of the form, the button) carries it, not the first step.
 */
export function tellCardFrame(host: Element, message: ToFrameMessage): void {
  const frame = cardFrameIn(host);
  frame?.contentWindow?.postMessage(message, new URL(frame.src, location.href).origin);
}
