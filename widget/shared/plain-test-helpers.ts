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

/** A team (or fundraiser) as the proxy sends it in a leaderboard. */
export const peer = (
  id: string,
  name: string,
  raised: string,
  goal: string | null = null,
  kind: "team" | "fundraiser" = "team",
) => ({ id, name, kind, team_id: null, team_name: null, raised, goal });

/** The browser's EventSource, driven by the test: each stream the page opens, and what it hears. */
export class FakeSource extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static opened: FakeSource[] = [];
  readyState = FakeSource.CONNECTING;
  constructor(readonly url: string) {
    super();
    FakeSource.opened.push(this);
  }
  close() {
    this.readyState = FakeSource.CLOSED;
  }
  /** A `figures` message. */
  send(message: unknown) {
    this.readyState = FakeSource.OPEN;
    this.dispatchEvent(new MessageEvent("figures", { data: JSON.stringify(message) }));
  }
  /** The connection dropped: the browser tries again (CONNECTING) or gives up (CLOSED). */
  drop(gaveUp = false) {
    this.readyState = gaveUp ? FakeSource.CLOSED : FakeSource.CONNECTING;
    this.dispatchEvent(new Event("error"));
  }
}

/** The stream open at `url` (waited for). */
export async function stream(url: string): Promise<FakeSource> {
  return vi.waitFor(() => {
    const source = FakeSource.opened.find((opened) => opened.url === url && opened.readyState !== 2);
    if (!source) throw new Error(`no stream open at ${url}`);
    return source;
  });
}
