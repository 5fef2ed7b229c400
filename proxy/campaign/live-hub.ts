/**
 * The live feed of a campaign (GET …/live?of=): every browser connected to this proxy for a
 * campaign gets the same server-sent event (one per `of`: none, teams or fundraisers), made once
 * from the one progress cache (proxy/campaign/progress.ts, through proxy/campaign/gala-feed.ts) each time a read
 * brings new figures or the peer lists new names. However many screens watch, the proxy looks at its store at most
 * once per TICK_MS per campaign and the upstream is read at most once per interval, as for
 * GET …/progress: a connection costs the upstream nothing.
 */
import type { Campaign, LiveMessage } from "../../contract/api";
import type { LeaderboardKind } from "../../contract/gala";
import type { GalaFeed, GalaFigures } from "./gala-feed";

/** How often a watched campaign's figures are looked at (the store, not the upstream). */
export const TICK_MS = 1000;
/** A comment line this often keeps idle connections open through proxies that cut silent ones. */
export const KEEPALIVE_MS = 15_000;
/** What a browser waits before it reconnects after the stream drops (EventSource's `retry`). */
export const RETRY_MS = 3000;

/** One connection: where its bytes go. A write still under way when the next comes is skipped to. */
export interface LiveClient {
  write(chunk: string): Promise<unknown>;
  close(): void;
}

/** What a connection asked for: the figures and the wall, and a leaderboard when `of` says which. */
export type LiveView = LeaderboardKind | "";

interface Watched {
  campaign: Campaign;
  clients: Map<LiveClient, { busy: boolean; next: string | null; view: LiveView }>;
  timer: ReturnType<typeof setInterval>;
  /** The last message sent to each view. */
  messages: Map<LiveView, string>;
  key: string;
  idleTicks: number;
  ticking: boolean;
}

/** One message as the stream carries it: each carries the whole state, so a skipped one loses nothing. */
export function liveEvent(figures: GalaFigures, view: LiveView = ""): string {
  const message: LiveMessage = { progress: figures.progress, wall: figures.wall, stale: figures.failing };
  if (view !== "") message.leaders = figures.leaders(view === "teams" ? "team" : "fundraiser");
  return `event: figures\nid: ${figures.read_at}\nretry: ${RETRY_MS}\ndata: ${JSON.stringify(message)}\n\n`;
}

export function createLiveHub(options: {
  progress: GalaFeed;
  /** True once the proxy is closing: every stream is ended, so browsers reconnect to another. */
  draining?: () => boolean;
  tickMs?: number;
}) {
  const tickMs = options.tickMs ?? TICK_MS;
  const watched = new Map<string, Watched>();
  const keepaliveTicks = Math.max(1, Math.round(KEEPALIVE_MS / tickMs));

  function send(entry: Watched, client: LiveClient, chunk: string) {
    const state = entry.clients.get(client);
    if (!state) return;
    if (state.busy) {
      state.next = chunk;
      return;
    }
    state.busy = true;
    client
      .write(chunk)
      .catch(() => leave(entry, client))
      .finally(() => {
        state.busy = false;
        const next = state.next;
        state.next = null;
        if (next !== null) send(entry, client, next);
      });
  }

  function leave(entry: Watched, client: LiveClient) {
    if (!entry.clients.delete(client)) return;
    if (entry.clients.size === 0) {
      clearInterval(entry.timer);
      watched.delete(entry.key);
    }
  }

  async function tick(entry: Watched) {
    if (entry.ticking) return;
    entry.ticking = true;
    try {
      if (options.draining?.()) {
        for (const client of entry.clients.keys()) {
          leave(entry, client);
          client.close();
        }
        return;
      }
      const figures = await options.progress.live(entry.campaign);
      // Each view's message made once, however many connections share it.
      const changed = new Map<LiveView, string>();
      for (const view of new Set(Array.from(entry.clients.values(), (client) => client.view))) {
        const message = liveEvent(figures, view);
        if (message !== entry.messages.get(view)) changed.set(view, message);
      }
      if (changed.size > 0) {
        for (const [view, message] of changed) entry.messages.set(view, message);
        entry.idleTicks = 0;
        for (const [client, { view }] of entry.clients) {
          const message = changed.get(view);
          if (message !== undefined) send(entry, client, message);
        }
      } else if (++entry.idleTicks >= keepaliveTicks) {
        entry.idleTicks = 0;
        for (const client of entry.clients.keys()) send(entry, client, ": still here\n\n");
      }
    } catch {
      // No figures now (the store or the upstream is away): the screens keep the last ones they have.
    } finally {
      entry.ticking = false;
    }
  }

  return {
    /**
     * Starts sending the campaign's figures (and the `view`'s leaderboard) to `client`: the current
     * ones at once (`first`, from the caller's own read), then each change. Returns what ends it
     * (the connection closed).
     */
    join(campaign: Campaign, client: LiveClient, first: GalaFigures, view: LiveView = ""): () => void {
      const key = `${campaign.shortcode}/${campaign.keyword.toUpperCase()}`;
      let entry = watched.get(key);
      if (!entry) {
        const created: Watched = {
          campaign,
          clients: new Map(),
          timer: setInterval(() => void tick(created), tickMs),
          messages: new Map(),
          key,
          idleTicks: 0,
          ticking: false,
        };
        created.timer.unref?.();
        watched.set(key, (entry = created));
      }
      const joined = entry;
      joined.clients.set(client, { busy: false, next: null, view });
      // What the others were sent last (the first of a view: its own read, remembered so the next tick does not repeat it).
      let message = joined.messages.get(view);
      if (message === undefined) joined.messages.set(view, (message = liveEvent(first, view)));
      send(joined, client, message);
      return () => leave(joined, client);
    },
    /** Connections open now, for the tests and the metrics. */
    connections(): number {
      let count = 0;
      for (const entry of watched.values()) count += entry.clients.size;
      return count;
    },
  };
}

export type LiveHub = ReturnType<typeof createLiveHub>;
