/**
 * `<givekit-wall shortcode keyword>`: the latest gifts as the room may see them (the proxy has
 * already left out what a room may not: widget/../proxy/wall.ts), newest first, kept live by the
 * proxy's server-sent events, polled where those do not get through, and fetched again at once
 * after a gift made through a givekit form on the same page. Plain DOM, like <givekit-goal>.
 */
import type { WallEntry } from "../../contract/api";
import { ANONYMOUS, WALL_LIMIT_MAX } from "../../contract/gala";
import { toCents } from "../../contract/money";
import {
  KEYWORD_EXPECTED,
  KEYWORD_PATTERN,
  SHORTCODE_EXPECTED,
  SHORTCODE_PATTERN,
} from "../../contract/patterns";
import { loadMessages, localeOf, type Messages } from "../i18n";
import { emit, type GivekitEventMap } from "../shared/events";
import { formatMoney } from "../shared/format";
import { resolveProxyUrl } from "../shared/proxy-url";
import { adoptStyles } from "../shared/styles";
import { ageText } from "./age";
import { readLive, readWall } from "./read";
import css from "./wall.css?inline";

export const WALL_ATTRIBUTES = ["shortcode", "keyword", "limit", "amounts", "locale", "proxy"] as const;
export const DEFAULT_LIMIT = 12;
/** Where the live feed does not get through: the wall is asked for this often instead. */
export const POLL_S = 30;
/** "2 minutes ago" is written again this often. */
const AGE_TICK_MS = 30_000;

export interface WallProps {
  base: string;
  limit: number;
  amounts: boolean;
}

/** The attributes as props, or the problem with the first bad one (for the `[givekit]` line). */
export function readWallAttributes(get: (name: string) => string | null): WallProps | string {
  const shortcode = get("shortcode") ?? "";
  const keyword = get("keyword") ?? "";
  if (!SHORTCODE_PATTERN.test(shortcode)) return `the "shortcode" attribute must be ${SHORTCODE_EXPECTED}.`;
  if (!KEYWORD_PATTERN.test(keyword)) return `the "keyword" attribute must be ${KEYWORD_EXPECTED}.`;
  const limitText = get("limit");
  const limit = limitText === null ? DEFAULT_LIMIT : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > WALL_LIMIT_MAX)
    return `the "limit" attribute must be a whole number from 1 to ${WALL_LIMIT_MAX}.`;
  const amounts = get("amounts");
  if (amounts !== null && amounts !== "hidden" && amounts !== "shown")
    return 'the "amounts" attribute must be "hidden" or "shown".';
  const proxyUrl = resolveProxyUrl(get("proxy"));
  if (!proxyUrl) return 'the "proxy" attribute must be an http or https URL.';
  return {
    base: `${proxyUrl}/v1/campaigns/${shortcode}/${encodeURIComponent(keyword)}`,
    limit,
    amounts: amounts !== "hidden",
  };
}

function part<K extends keyof HTMLElementTagNameMap>(tag: K, name: string, text?: string) {
  const element = document.createElement(tag);
  element.setAttribute("part", name);
  element.className = `gk-${name}`;
  if (text !== undefined) element.textContent = text;
  return element;
}

export class WallElement extends HTMLElement {
  static observedAttributes = WALL_ATTRIBUTES;
  #root = part("div", "wall");
  #list = part("ol", "list");
  #props: WallProps | null = null;
  #t: Messages | null = null;
  #entries: WallEntry[] | null = null;
  /** Each shown gift's row, by its id. */
  #rows = new Map<string, HTMLLIElement>();
  #currency = "USD";
  #source: EventSource | null = null;
  #poll: ReturnType<typeof setInterval> | undefined;
  #ages: ReturnType<typeof setInterval> | undefined;
  #run = 0;
  #onDonation = (event: Event) => {
    const { status } = (event as CustomEvent<GivekitEventMap["givekit:donation"]>).detail ?? {};
    if (status === "Success") void this.#load(true);
  };

  connectedCallback() {
    if (!this.shadowRoot) {
      const shadow = this.attachShadow({ mode: "open" });
      adoptStyles(shadow, css);
      this.#root.className = "gk-root gk-wall";
      shadow.append(this.#root);
    }
    document.addEventListener("givekit:donation", this.#onDonation);
    void this.#start();
  }

  disconnectedCallback() {
    document.removeEventListener("givekit:donation", this.#onDonation);
    this.#stop();
  }

  attributeChangedCallback() {
    if (this.isConnected && this.shadowRoot) void this.#start();
  }

  #stop() {
    this.#source?.close();
    this.#source = null;
    clearInterval(this.#poll);
    clearInterval(this.#ages);
  }

  async #start() {
    const run = ++this.#run;
    this.#stop();
    this.#entries = null;
    this.#rows = new Map();
    const t = await loadMessages(this.getAttribute("locale")).catch(() => null);
    if (run !== this.#run) return;
    this.#t = t;
    const props = readWallAttributes((name) => this.getAttribute(name));
    if (typeof props === "string") {
      console.error(`[givekit] <givekit-wall>: ${props}`);
      this.#props = null;
      return this.#note();
    }
    this.#props = props;
    this.#list.setAttribute("aria-label", t?.wall.label ?? "");
    await this.#load(false);
    if (run !== this.#run) return;
    this.#listen(props);
    this.#ages = setInterval(() => this.#render(), AGE_TICK_MS);
    emit(this, "givekit:ready", { widget: "wall" });
  }

  /** The live feed; where it cannot be had (no EventSource, or the proxy refused it), polling. */
  #listen(props: WallProps) {
    const poll = () => {
      clearInterval(this.#poll);
      this.#poll = setInterval(() => void this.#load(false), POLL_S * 1000);
    };
    if (typeof EventSource === "undefined") return poll();
    const source = new EventSource(`${props.base}/live`);
    this.#source = source;
    source.addEventListener("figures", (event) => {
      const message = readLive(JSON.parse((event as MessageEvent<string>).data) as unknown);
      if (!message || props !== this.#props) return;
      clearInterval(this.#poll);
      this.#currency = message.progress.currency;
      this.#show(message.wall);
    });
    // The browser reconnects by itself; a stream it gave up on leaves the wall to polling.
    source.addEventListener("error", () => {
      if (source.readyState === EventSource.CLOSED) poll();
    });
  }

  async #load(fresh: boolean) {
    const props = this.#props;
    if (!props) return;
    const response = await fetch(`${props.base}/wall?limit=${props.limit}`, {
      credentials: "omit",
      headers: { Accept: "application/json" },
      cache: fresh ? "no-cache" : "default",
    }).catch(() => null);
    const body: unknown = response?.ok ? await response.json().catch(() => null) : null;
    if (props !== this.#props) return;
    const wall = readWall(body);
    if (wall) {
      this.#currency = wall.currency;
      return this.#show(wall.entries);
    }
    // A failure keeps the last gifts shown; without any, a short note instead of an empty box.
    if (this.#entries === null) this.#note();
  }

  #show(entries: WallEntry[]) {
    this.#entries = entries.slice(0, this.#props?.limit ?? DEFAULT_LIMIT);
    this.#render();
  }

  #render() {
    const entries = this.#entries;
    const t = this.#t?.wall;
    if (!entries || !t || !this.#props) return;
    const locale = localeOf(this.getAttribute("locale"));
    const now = Date.now();
    if (entries.length === 0) {
      this.#root.replaceChildren(part("p", "empty", t.empty));
      return;
    }
    // Each gift's row is made once and kept: only a new gift's row comes in (and is animated).
    const rows = new Map<string, HTMLLIElement>();
    const first = this.#rows.size === 0;
    for (const entry of entries) {
      let item = this.#rows.get(entry.id);
      if (!item) {
        item = part("li", "entry");
        if (!first) item.classList.add("gk-new");
        item.append(part("span", "name", entry.name === ANONYMOUS ? t.anonymous : entry.name));
        if (this.#props.amounts)
          item.append(
            part("span", "amount", formatMoney(toCents(entry.amount), this.#currency, locale, true)),
          );
        if (entry.credited) item.append(part("span", "credited", t.credited(entry.credited)));
        const time = part("time", "time");
        time.setAttribute("datetime", entry.at);
        item.append(time);
      }
      item.lastElementChild!.textContent = ageText(entry.at, now, locale);
      rows.set(entry.id, item);
    }
    this.#rows = rows;
    this.#list.replaceChildren(...rows.values());
    if (this.#root.firstChild !== this.#list) this.#root.replaceChildren(this.#list);
  }

  #note() {
    const note = part("p", "fallback", this.#t?.wall.unavailable ?? "");
    note.setAttribute("role", "note");
    this.#root.replaceChildren(note);
  }
}

/**
 * Defines `<givekit-wall>` (once; calling it again does nothing).
 *
 * @example
 * defineWallElement();
 * // <givekit-wall shortcode="71777" keyword="HOPE" limit="8" amounts="hidden"></givekit-wall>
 */
export function defineWallElement(): void {
  if (typeof customElements !== "undefined" && !customElements.get("givekit-wall"))
    customElements.define("givekit-wall", WallElement);
}
