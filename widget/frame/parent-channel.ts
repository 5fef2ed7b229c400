import type { FromFrameMessage, ToFrameMessage } from "../../contract/frame";
import { readToFrameMessage } from "../shared/frame-messages";

/**
 * The frame's only line to the page that opened it. Messages go to that one origin (so a
 * token can never reach another page), and only that origin's messages are read.
 */
export function createParentChannel(parentOrigin: string) {
  return {
    send(message: FromFrameMessage) {
      window.parent.postMessage(message, parentOrigin);
    },
    listen(handler: (message: ToFrameMessage) => void): () => void {
      const onMessage = (event: MessageEvent) => {
        if (event.origin !== parentOrigin || event.source !== window.parent) return;
        const message = readToFrameMessage(event.data);
        if (message) handler(message);
      };
      window.addEventListener("message", onMessage);
      return () => window.removeEventListener("message", onMessage);
    },
  };
}
export type ParentChannel = ReturnType<typeof createParentChannel>;

/**
 * The page origin the frame was opened for (the `origin` parameter), if the browser agrees
 * that this is who embeds it: location.ancestorOrigins where it exists, else the referrer.
 */
export function trustedParentOrigin(search: string): string | null {
  const claimed = new URLSearchParams(search).get("origin");
  if (!claimed || window.parent === window) return null;
  let origin: string;
  try {
    origin = new URL(claimed).origin;
  } catch {
    return null;
  }
  if (origin !== claimed) return null;
  const ancestors = location.ancestorOrigins;
  if (ancestors && ancestors.length > 0) return ancestors[0] === origin ? origin : null;
  if (document.referrer) {
    try {
      return new URL(document.referrer).origin === origin ? origin : null;
    } catch {
      return null;
    }
  }
  // With neither to check, postMessage's target origin still keeps tokens from other pages.
  return origin;
}
