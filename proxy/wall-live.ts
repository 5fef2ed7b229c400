/**
 * The live feed of a campaign (GET …/live): every browser connected to this proxy for a campaign
 * gets the same server-sent event, made once from the one progress cache (proxy/progress.ts) each
 * time a read brings new figures. However many screens watch, the proxy looks at its store at most
 * once per TICK_MS per campaign and the upstream is read at most once per interval, as for
 * GET …/progress: a connection costs the upstream nothing.
 */
import type { Campaign, LiveMessage } from "../contract/api";
import type { SentFigures, WallFeed } from "./wall-feed";

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

interface Watched {
  campaign: Campaign;
  clients: Map<LiveClient, { busy: boolean; next: string | null }>;
  timer: ReturnType<typeof setInterval>;
  /** The last message sent, and what it was made from. */
  message: string | null;
  key: string;
  idleTicks: number;
  ticking: boolean;
}

/** One message as the stream carries it: each carries the whole state, so a skipped one loses nothing. */
export function liveEvent(figures: SentFigures): string {
  const message: LiveMessage = { progress: figures.progress, wall: figures.wall, stale: figures.failing };
  return `event: figures\nid: ${figures.read_at}\nretry: ${RETRY_MS}\ndata: ${JSON.stringify(message)}\n\n`;
}

export function createLiveHub(options: {
  progress: WallFeed;
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
      const message = liveEvent(await options.progress.live(entry.campaign));
      if (message !== entry.message) {
        entry.message = message;
        entry.idleTicks = 0;
        for (const client of entry.clients.keys()) send(entry, client, message);
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
     * Starts sending the campaign's figures to `client`: the current ones at once (`first`, from
     * the caller's own read), then each change. Returns what ends it (the connection closed).
     */
    join(campaign: Campaign, client: LiveClient, first: SentFigures): () => void {
      const key = `${campaign.shortcode}/${campaign.keyword.toUpperCase()}`;
      let entry = watched.get(key);
      if (!entry) {
        const created: Watched = {
          campaign,
          clients: new Map(),
          timer: setInterval(() => void tick(created), tickMs),
          message: null,
          key,
          idleTicks: 0,
          ticking: false,
        };
        created.timer.unref?.();
        watched.set(key, (entry = created));
      }
      const joined = entry;
      joined.clients.set(client, { busy: false, next: null });
      // What the others were sent last (the first client: its own read, remembered so the next tick does not repeat it).
      joined.message ??= liveEvent(first);
      send(joined, client, joined.message);
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
