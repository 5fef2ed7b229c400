import { signal } from "@preact/signals-core";

/**
 * What the form knows of the card, as the frame tells it (card-port.ts, which comes with the
 * card's step in later.ts, keeps it up to date): whether it is complete, its brand, the frame's
 * height, whether the frame failed to load, and a revision bumped at each edit. Until the frame
 * speaks: nothing entered.
 */
export function createCardState() {
  return {
    complete: signal(false),
    brand: signal("unknown"),
    height: signal(0),
    failed: signal(false),
    revision: signal(0),
  };
}
export type CardState = ReturnType<typeof createCardState>;
