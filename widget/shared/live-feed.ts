/**
 * The live elements' feed (<givekit-wall>, <givekit-leaderboard>): the proxy's server-sent events
 * (`…/live`, one `figures` message per change), polling where the stream cannot be had (no
 * EventSource, or the browser gave up on it: readyState CLOSED, or a proxy whose messages lack
 * what the element shows), a fresh answer at once after a gift through a givekit form on the page,
 * and a note when the figures are not live: the stream dropped (the proxy unreachable or
 * restarting), the proxy says they are stale, or a poll failed. The last figures stay below it
 * with their age ("Reconnecting… updated 2 minutes ago"); the next good message takes it away.
 */
import type { LiveMessage } from "../../contract/api";
import { chooseLocale, intlTag } from "../i18n";
import { ageText } from "./age-text";
import { readLive } from "./read-feeds";
import liveCss from "./live.css?inline";
import { part, PlainElement, type AttributeReader, type PlainWidget } from "./plain-element";

/** What a live element needs of its attributes: where its stream is, and how often to poll without it. */
export interface LiveProps {
  stream: string;
  pollS: number;
}

/** What a live element shows: its currency, and when the proxy read it (unknown: when it came). */
export interface Figures {
  currency: string;
  updated_at?: string;
}

/** A stream the browser gave up on is opened again after `first` ms, doubled each time up to `last`. */
const REOPEN_MS = { first: 5000, last: 120_000 } as const;

/** The note's age and the element's own ages ("3 minutes ago") are written again this often. */
const TICK_MS = 30_000;

export abstract class LiveElement<Props extends LiveProps, T extends Figures> extends PlainElement<Props> {
  /** part="status", role="status": empty (and not shown) while the figures are live. */
  protected status = part("p", "status");
  #source: EventSource | null = null;
  #poll: ReturnType<typeof setInterval> | undefined;
  #tick: ReturnType<typeof setInterval> | undefined;
  /** When the figures shown were read; null while none are shown. */
  #asOf: string | null = null;
  #down = false;
  /** Bumped by each stop: an answer to an older start is dropped. */
  #epoch = 0;

  constructor(widget: PlainWidget, css: string, read: AttributeReader<Props>) {
    super(widget, liveCss + css, read);
    this.status.setAttribute("role", "status");
  }

  /** What this element shows of a live message; null where the message does not carry it. */
  protected abstract take(message: LiveMessage, props: Props): T | null;
  /** The polled answer, read; null for any failure. */
  protected abstract poll(props: Props, fresh: boolean): Promise<T | null>;
  protected abstract show(figures: T): void;
  /** The note, with how long ago the last figures were read. */
  protected abstract reconnecting(age: string): string;
  /** Every 30 s, beside the note's age: the element's own times. */
  protected tick(): void {}

  /** Puts `nodes` in the box below the status note. */
  protected fill(...nodes: Node[]) {
    this.root.replaceChildren(this.status, ...nodes);
  }

  protected begin(props: Props): Promise<void> {
    this.#asOf = null;
    this.#down = false;
    this.#tick = setInterval(() => {
      this.tick();
      this.#say();
    }, TICK_MS);
    if (typeof EventSource === "undefined") return this.#polling(props);
    return new Promise((settle) =>
      this.#open(props, settle, { epoch: this.#epoch, wait: REOPEN_MS.first, asked: false }),
    );
  }

  /**
   * The stream. One the browser gives up on (a restarting proxy answers 503, not a stream) leaves
   * the element polling, and is opened again after a wait that doubles while it keeps failing.
   */
  #open(props: Props, settle: () => void, run: { epoch: number; wait: number; asked: boolean }) {
    const source = new EventSource(props.stream);
    this.#source = source;
    source.addEventListener("figures", (event) => {
      let message: LiveMessage | null = null;
      try {
        message = readLive(JSON.parse((event as MessageEvent<string>).data) as unknown);
      } catch {}
      if (!message || run.epoch !== this.#epoch) return;
      const figures = this.take(message, props);
      if (figures) {
        clearInterval(this.#poll);
        run.wait = REOPEN_MS.first;
        this.#got(figures, message.stale);
        return settle();
      }
      // A proxy that does not send what this element shows: ask it instead.
      source.close();
      void this.#polling(props).then(settle);
    });
    source.addEventListener("error", () => {
      if (run.epoch !== this.#epoch) return;
      // The browser reconnects by itself, unless it gave up.
      if (source.readyState === EventSource.CLOSED) {
        this.#every(props);
        setTimeout(() => {
          if (run.epoch === this.#epoch) this.#open(props, settle, run);
        }, run.wait);
        run.wait = Math.min(run.wait * 2, REOPEN_MS.last);
      }
      if (this.#asOf !== null) this.#mark(true);
      else if (!run.asked) {
        run.asked = true;
        void this.#load(props, false).then(settle);
      }
    });
  }

  protected refresh(props: Props) {
    void this.#load(props, true);
  }

  protected stop() {
    this.#epoch++;
    this.#source?.close();
    this.#source = null;
    clearInterval(this.#poll);
    clearInterval(this.#tick);
    this.status.textContent = "";
  }

  #every(props: Props) {
    clearInterval(this.#poll);
    this.#poll = setInterval(() => void this.#load(props, false), props.pollS * 1000);
  }

  #polling(props: Props) {
    this.#every(props);
    return this.#load(props, false);
  }

  async #load(props: Props, fresh: boolean) {
    const epoch = this.#epoch;
    const figures = await this.poll(props, fresh);
    if (epoch !== this.#epoch) return;
    if (figures) this.#got(figures, false);
    // A failure keeps the last figures shown, with the note; without any, a note instead of an empty box.
    else if (this.#asOf === null) this.note();
    else this.#mark(true);
  }

  #got(figures: T, stale: boolean) {
    this.#asOf = figures.updated_at ?? new Date().toISOString();
    this.show(figures);
    this.#mark(stale);
  }

  #mark(down: boolean) {
    this.#down = down;
    this.#say();
  }

  #say() {
    const asOf = this.#asOf;
    this.status.textContent =
      this.#down && asOf ? this.reconnecting(ageText(asOf, Date.now(), intlTag(chooseLocale(this)))) : "";
  }
}
