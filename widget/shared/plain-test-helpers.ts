// What the plain elements' tests share (<givekit-goal>, <givekit-wall>, <givekit-leaderboard>).
import { vi } from "vitest";

/**
 * Replaces `fetch` with one that answers each call with the next answer (a status and a JSON
 * body), the last one again; gives the calls made, each with its URL and cache mode.
 */
export function stubFetch(...answers: [number, unknown][]) {
  const calls: { url: string; cache: RequestCache | undefined }[] = [];
  const fetch = vi.fn<(url: string, init?: RequestInit) => Promise<Response>>(async (url, init) => {
    calls.push({ url, cache: init?.cache });
    const [status, body] = answers[Math.min(calls.length - 1, answers.length - 1)]!;
    return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
  });
  vi.stubGlobal("fetch", fetch);
  return calls;
}
