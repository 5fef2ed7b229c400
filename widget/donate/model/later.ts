type Later = typeof import("../later");

let request: Promise<Later> | null = null;
let loaded: Later | null = null;

/** widget/donate/later.ts, loaded once (tried again after a failed load, at the next Donate). */
export function loadLater(): Promise<Later> {
  return (request ??= import("../later").then(
    (module) => (loaded = module),
    (error: unknown) => {
      request = null;
      throw error;
    },
  ));
}

/** later.ts if it has arrived: always by the time a donation has an outcome (submit waits for it). */
export const laterIfLoaded = (): Later | null => loaded;
