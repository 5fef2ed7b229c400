import type { DonationRequest } from "../../../contract/api";

/** The request's field paths the contract's schema refuses (widget/donate/request-check.ts). */
export type RefusedPaths = (request: Omit<DonationRequest, "credit_card_token">) => string[];
let requestCheck: Promise<RefusedPaths> | null = null;

/** How long Donate waits for a request check still on its way, before going on without it. */
export const REQUEST_CHECK_WAIT_MS = 5000;

/**
 * The request check (zod and the contract's schema: a chunk of its own), loaded once and tried
 * again after a failed load. Started as the form opens, so it is there by Donate.
 */
export function loadRequestCheck(): Promise<RefusedPaths> {
  return (requestCheck ??= import("../request-check").then(
    (module) => module.refusedPaths,
    (error: unknown) => {
      requestCheck = null;
      throw error;
    },
  ));
}

/**
 * The request check, or null when it could not be loaded (some browsers never fetch a module
 * again once it failed) or is still on its way after `wait` ms: the donation then
 * goes without it, and the proxy, which checks the same schema, names any field it refuses.
 */
export async function requestCheckIfAny(wait = REQUEST_CHECK_WAIT_MS): Promise<RefusedPaths | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), wait);
  });
  try {
    return await Promise.race([loadRequestCheck(), late]);
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}
