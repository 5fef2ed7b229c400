/**
 * Runs once before the browser tests: finds the Chromium they drive (e2e/chromium.ts) and
 * hands its path to the workers, which read it in playwright.config.ts. Resolving it here,
 * once, keeps parallel workers from unpacking the npm-registry Chromium at the same time.
 */
import { findChromium } from "./chromium";

export const RESOLVED_CHROMIUM_VARIABLE = "GIVEKIT_CHROMIUM_RESOLVED";

export default async function globalSetup(): Promise<void> {
  const { path, source } = await findChromium();
  process.env[RESOLVED_CHROMIUM_VARIABLE] = path;
  process.stdout.write(`[e2e] Chromium from ${source}: ${path}\n`);
}
