/**
 * Whether the upstream can be reached at all, for readiness: one GET of its base URL on a fresh
 * connection, with no token; any HTTP answer counts. The answer is kept a few seconds, so load
 * balancers probing every proxy often do not become traffic of their own upstream.
 */
import { callUpstream } from "./http";

/** How long one answer is kept. */
const CACHE_MS = 5000;
/** Readiness must answer fast: a probe that takes longer says "not reachable". */
const PROBE_TIMEOUT_MS = 2000;

/**
 * @example
 * const reachable = createReachability("http://127.0.0.1:4010", 3000);
 * await reachable(); // true
 */
export function createReachability(baseUrl: string, connectTimeoutMs: number): () => Promise<boolean> {
  let last: { at: number; answer: Promise<boolean> } | undefined;
  return () => {
    const now = Date.now();
    if (last && now - last.at < CACHE_MS) return last.answer;
    const answer = callUpstream({
      method: "GET",
      url: new URL(`${baseUrl}/`),
      headers: { Accept: "application/json" },
      connectTimeoutMs: Math.min(connectTimeoutMs, PROBE_TIMEOUT_MS),
      timeoutMs: PROBE_TIMEOUT_MS,
      agent: false,
    }).then(
      () => true,
      () => false,
    );
    last = { at: now, answer };
    return answer;
  };
}
