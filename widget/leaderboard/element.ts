/**
 * `<givekit-leaderboard shortcode keyword of="teams|fundraisers">`: a campaign's teams or
 * fundraisers by what they have raised, each with its goal bar (a team with a goal) and a link to
 * give to it: the donate page (`donate-url`, else this page) with `?team=` or `?fundraiser=`,
 * which <givekit-donate> reads to credit the gift. Refreshed on a timer and at once after a gift
 * made through a givekit form on the same page. Plain DOM, like <givekit-goal>.
 */
import type { Peer } from "../../contract/api";
import { LEADERBOARD_LIMIT_MAX, type LeaderboardKind } from "../../contract/gala";
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
import { readLeaderboard } from "../wall/read";
import css from "./leaderboard.css?inline";

export const LEADERBOARD_ATTRIBUTES = [
  "shortcode",
  "keyword",
  "of",
  "limit",
  "donate-url",
  "refresh",
  "locale",
  "proxy",
] as const;
export const DEFAULT_LIMIT = 5;
/** The peer lists behind it are read again about once a minute (GIVEKIT_PEERS_CACHE_S). */
export const DEFAULT_REFRESH_S = 60;
export const MIN_REFRESH_S = 15;

export interface LeaderboardProps {
  url: string;
  of: LeaderboardKind;
  donateUrl: URL;
  refreshS: number;
}

/** The attributes as props, or the problem with the first bad one (for the `[givekit]` line). */
export function readLeaderboardAttributes(get: (name: string) => string | null): LeaderboardProps | string {
  const shortcode = get("shortcode") ?? "";
  const keyword = get("keyword") ?? "";
  if (!SHORTCODE_PATTERN.test(shortcode)) return `the "shortcode" attribute must be ${SHORTCODE_EXPECTED}.`;
  if (!KEYWORD_PATTERN.test(keyword)) return `the "keyword" attribute must be ${KEYWORD_EXPECTED}.`;
  const of = get("of") ?? "teams";
  if (of !== "teams" && of !== "fundraisers") return 'the "of" attribute must be "teams" or "fundraisers".';
  const limitText = get("limit");
  const limit = limitText === null ? DEFAULT_LIMIT : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > LEADERBOARD_LIMIT_MAX)
    return `the "limit" attribute must be a whole number from 1 to ${LEADERBOARD_LIMIT_MAX}.`;
  const refresh = get("refresh");
  const refreshS = refresh === null ? DEFAULT_REFRESH_S : Number(refresh);
  if (!Number.isInteger(refreshS) || refreshS < MIN_REFRESH_S)
    return `the "refresh" attribute must be a whole number of seconds, at least ${MIN_REFRESH_S}.`;
  let donateUrl: URL;
  try {
    donateUrl = new URL(get("donate-url") ?? location.href, location.href);
  } catch {
    return 'the "donate-url" attribute must be a URL.';
  }
  if (donateUrl.protocol !== "https:" && donateUrl.protocol !== "http:")
    return 'the "donate-url" attribute must be an http or https URL.';
  const proxyUrl = resolveProxyUrl(get("proxy"));
  if (!proxyUrl) return 'the "proxy" attribute must be an http or https URL.';
  return {
    url: `${proxyUrl}/v1/campaigns/${shortcode}/${encodeURIComponent(keyword)}/leaderboard?of=${of}&limit=${limit}`,
    of,
    donateUrl,
    refreshS,
  };
}

/** The donate page's address that credits the peer (<givekit-donate> reads ?team= and ?fundraiser=). */
export function giveUrl(donateUrl: URL, peer: Pick<Peer, "id" | "kind">): string {
  const url = new URL(donateUrl);
  url.searchParams.delete("team");
  url.searchParams.delete("fundraiser");
  url.searchParams.set(peer.kind, peer.id);
  return url.href;
}

function part<K extends keyof HTMLElementTagNameMap>(tag: K, name: string, text?: string) {
  const element = document.createElement(tag);
  element.setAttribute("part", name);
  element.className = `gk-${name}`;
  if (text !== undefined) element.textContent = text;
  return element;
}

export class LeaderboardElement extends HTMLElement {
  static observedAttributes = LEADERBOARD_ATTRIBUTES;
  #root = part("div", "leaderboard");
  #props: LeaderboardProps | null = null;
  #t: Messages | null = null;
  #shown = false;
  #timer: ReturnType<typeof setInterval> | undefined;
  #run = 0;
  #onDonation = (event: Event) => {
    const { status } = (event as CustomEvent<GivekitEventMap["givekit:donation"]>).detail ?? {};
    if (status === "Success") void this.#load(true);
  };

  connectedCallback() {
    if (!this.shadowRoot) {
      const shadow = this.attachShadow({ mode: "open" });
      adoptStyles(shadow, css);
      this.#root.className = "gk-root gk-leaderboard";
      shadow.append(this.#root);
    }
    document.addEventListener("givekit:donation", this.#onDonation);
    void this.#start();
  }

  disconnectedCallback() {
    document.removeEventListener("givekit:donation", this.#onDonation);
    clearInterval(this.#timer);
  }

  attributeChangedCallback() {
    if (this.isConnected && this.shadowRoot) void this.#start();
  }

  async #start() {
    const run = ++this.#run;
    clearInterval(this.#timer);
    this.#shown = false;
    const t = await loadMessages(this.getAttribute("locale")).catch(() => null);
    if (run !== this.#run) return;
    this.#t = t;
    const props = readLeaderboardAttributes((name) => this.getAttribute(name));
    if (typeof props === "string") {
      console.error(`[givekit] <givekit-leaderboard>: ${props}`);
      this.#props = null;
      return this.#note();
    }
    this.#props = props;
    await this.#load(false);
    if (run !== this.#run) return;
    this.#timer = setInterval(() => void this.#load(false), props.refreshS * 1000);
    emit(this, "givekit:ready", { widget: "leaderboard" });
  }

  async #load(fresh: boolean) {
    const props = this.#props;
    if (!props) return;
    const response = await fetch(props.url, {
      credentials: "omit",
      headers: { Accept: "application/json" },
      cache: fresh ? "no-cache" : "default",
    }).catch(() => null);
    const body: unknown = response?.ok ? await response.json().catch(() => null) : null;
    if (props !== this.#props) return;
    const board = readLeaderboard(body);
    if (board) return this.#show(board.leaders, board.currency);
    if (!this.#shown) this.#note();
  }

  #show(leaders: Peer[], currency: string) {
    const t = this.#t!.leaderboard;
    const props = this.#props!;
    const locale = localeOf(this.getAttribute("locale"));
    const money = (amount: string) => formatMoney(toCents(amount), currency, locale, true);
    const heading = part("h2", "heading", props.of === "teams" ? t.teams : t.fundraisers);
    if (leaders.length === 0) {
      this.#root.replaceChildren(heading, part("p", "empty", t.empty));
      this.#shown = true;
      return;
    }
    const list = part("ol", "list");
    for (const peer of leaders) {
      const item = part("li", "leader");
      const raised = peer.raised ?? "0.00";
      item.append(part("span", "name", peer.name), part("span", "raised", t.raised(money(raised))));
      if (peer.goal !== null && toCents(peer.goal) > 0) {
        const percent = Math.min(100, Math.floor((toCents(raised) * 100) / toCents(peer.goal)));
        const bar = part("div", "bar");
        bar.setAttribute("role", "progressbar");
        bar.setAttribute("aria-valuemin", "0");
        bar.setAttribute("aria-valuemax", "100");
        bar.setAttribute("aria-valuenow", String(percent));
        bar.setAttribute("aria-valuetext", t.ofGoal(money(raised), money(peer.goal)));
        bar.setAttribute("aria-label", peer.name);
        const fill = part("span", "bar-fill");
        fill.style.width = `${percent}%`;
        bar.append(fill);
        item.append(bar);
      }
      const link = part("a", "give", t.give);
      link.href = giveUrl(props.donateUrl, peer);
      link.setAttribute("aria-label", t.giveTo(peer.name));
      item.append(link);
      list.append(item);
    }
    this.#root.replaceChildren(heading, list);
    this.#shown = true;
  }

  #note() {
    const note = part("p", "fallback", this.#t?.leaderboard.unavailable ?? "");
    note.setAttribute("role", "note");
    this.#root.replaceChildren(note);
  }
}

/**
 * Defines `<givekit-leaderboard>` (once; calling it again does nothing).
 *
 * @example
 * defineLeaderboardElement();
 * // <givekit-leaderboard shortcode="71777" keyword="HOPE" of="fundraisers" limit="5"></givekit-leaderboard>
 */
export function defineLeaderboardElement(): void {
  if (typeof customElements !== "undefined" && !customElements.get("givekit-leaderboard"))
    customElements.define("givekit-leaderboard", LeaderboardElement);
}
