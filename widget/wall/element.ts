/**
 * `<givekit-wall shortcode keyword>`: the latest gifts as the room may see them (the proxy has
 * already left out what a room may not: proxy/campaign/wall.ts), newest first, kept live by the
 * proxy's server-sent events, polled where those do not get through, and fetched again at once
 * after a gift made through a givekit form on the same page; when they are not live, the last
 * gifts stay under a "Reconnecting…" note (widget/shared/live-feed.ts). Plain DOM, like
 * <givekit-goal>.
 */
import type { LiveMessage, WallEntry, WallResponse } from "../../contract/api";
import {
  WALL_AMOUNTS,
  WALL_AMOUNTS_EXPECTED,
  WALL_LIMIT_EXPECTED,
  WALL_LIMIT_MAX,
  wholeNumber,
} from "../../contract/element-rules";
import { ANONYMOUS } from "../../contract/gala";
import { toCents } from "../../contract/money";
import {
  KEYWORD_EXPECTED,
  KEYWORD_PATTERN,
  SHORTCODE_EXPECTED,
  SHORTCODE_PATTERN,
} from "../../contract/patterns";
import { chooseLocale, intlTag } from "../i18n";
import { formatMoney } from "../shared/format";
import { LiveElement } from "../shared/live-feed";
import { getJson, part } from "../shared/plain-element";
import { resolveProxyUrl } from "../shared/proxy-url";
import { ageText } from "../shared/age-text";
import { readWall } from "../shared/read-feeds";
import css from "./wall.css?inline";

export const WALL_ATTRIBUTES = ["shortcode", "keyword", "limit", "amounts", "locale", "proxy"] as const;
export const DEFAULT_LIMIT = 12;
/** Where the live feed does not get through: the wall is asked for this often instead. */
export const POLL_S = 30;

export interface WallProps {
  /** The live feed, `…/live`. */
  stream: string;
  /** The wall, `…/wall?limit=`, where the feed does not get through. */
  url: string;
  pollS: number;
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
  const limit = limitText === null ? DEFAULT_LIMIT : wholeNumber(limitText, 1, WALL_LIMIT_MAX);
  if (limit === null) return `the "limit" attribute must be ${WALL_LIMIT_EXPECTED}.`;
  const amounts = get("amounts");
  if (amounts !== null && !(WALL_AMOUNTS as readonly string[]).includes(amounts))
    return `the "amounts" attribute must be ${WALL_AMOUNTS_EXPECTED}.`;
  const proxyUrl = resolveProxyUrl(get("proxy"));
  if (!proxyUrl) return 'the "proxy" attribute must be an http or https URL.';
  const base = `${proxyUrl}/v1/campaigns/${shortcode}/${encodeURIComponent(keyword)}`;
  return {
    stream: `${base}/live`,
    url: `${base}/wall?limit=${limit}`,
    pollS: POLL_S,
    limit,
    amounts: amounts !== "hidden",
  };
}

type WallFigures = Omit<WallResponse, "updated_at"> & { updated_at?: string };

export class WallElement extends LiveElement<WallProps, WallFigures> {
  static observedAttributes = WALL_ATTRIBUTES;
  #list = part("ol", "list");
  #entries: WallEntry[] | null = null;
  /** Each shown gift's row, by its id. */
  #rows = new Map<string, HTMLLIElement>();
  #currency = "USD";

  constructor() {
    super("wall", css, readWallAttributes);
  }

  protected override begin(props: WallProps) {
    this.#entries = null;
    this.#rows = new Map();
    this.#list.setAttribute("aria-label", this.t?.wall.label ?? "");
    return super.begin(props);
  }

  protected take(message: LiveMessage): WallFigures {
    return {
      entries: message.wall,
      currency: message.progress.currency,
      updated_at: message.progress.updated_at,
    };
  }

  protected async poll(props: WallProps, fresh: boolean) {
    return readWall(await getJson(props.url, fresh));
  }

  protected reconnecting(age: string) {
    return this.t!.wall.reconnecting(age);
  }

  protected show({ entries, currency }: WallFigures) {
    this.#currency = currency;
    this.#entries = entries.slice(0, this.props?.limit ?? DEFAULT_LIMIT);
    this.#render();
  }

  protected override tick() {
    this.#render();
  }

  #render() {
    const entries = this.#entries;
    const t = this.t?.wall;
    if (!entries || !t || !this.props) return;
    const locale = chooseLocale(this);
    const now = Date.now();
    if (entries.length === 0) return this.fill(part("p", "empty", t.empty));
    // Each gift's row is made once and kept: only a new gift's row comes in (and is animated).
    const rows = new Map<string, HTMLLIElement>();
    const first = this.#rows.size === 0;
    for (const entry of entries) {
      let item = this.#rows.get(entry.id);
      if (!item) {
        item = part("li", "entry");
        if (!first) item.classList.add("gk-new");
        item.append(part("span", "name", entry.name === ANONYMOUS ? t.anonymous : entry.name));
        if (this.props.amounts)
          item.append(
            part("span", "amount", formatMoney(toCents(entry.amount), this.#currency, locale, true)),
          );
        if (entry.credited) item.append(part("span", "credited", t.credited(entry.credited)));
        const time = part("time", "time");
        time.setAttribute("datetime", entry.at);
        item.append(time);
      }
      item.lastElementChild!.textContent = ageText(entry.at, now, intlTag(locale));
      rows.set(entry.id, item);
    }
    this.#rows = rows;
    this.#list.replaceChildren(...rows.values());
    if (this.root.lastChild !== this.#list) this.fill(this.#list);
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
