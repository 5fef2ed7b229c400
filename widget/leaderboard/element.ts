/**
 * `<givekit-leaderboard shortcode keyword of="teams|fundraisers">`: a campaign's teams or
 * fundraisers by what they have raised, each with its goal bar (a team with a goal) and a link to
 * give to it: the donate page (`donate-url`, else this page) with `?team=` or `?fundraiser=`,
 * which <givekit-donate> reads to credit the gift. Kept live by the proxy's server-sent events
 * (`…/live?of=`, whose every message carries the leaderboard, summed from the same report read as
 * the figures and the wall); polled every `refresh` seconds only where that stream cannot be had;
 * asked again at once after a gift made through a givekit form on the same page. When its figures
 * are not live the last ones stay under a "Reconnecting…" note (widget/shared/live-feed.ts).
 * Plain DOM, like <givekit-goal>.
 */
import type { LeaderboardResponse, LiveMessage, Peer } from "../../contract/api";
import {
  LEADERBOARD_LIMIT_EXPECTED,
  LEADERBOARD_LIMIT_MAX,
  LEADERBOARD_OF_EXPECTED,
  REFRESH_EXPECTED,
  REFRESH_MIN_S,
  webUrl,
  wholeNumber,
} from "../../contract/element-rules";
import { LEADERBOARD_KINDS, type LeaderboardKind } from "../../contract/gala";
import { toCents } from "../../contract/money";
import {
  KEYWORD_EXPECTED,
  KEYWORD_PATTERN,
  SHORTCODE_EXPECTED,
  SHORTCODE_PATTERN,
} from "../../contract/patterns";
import { chooseLocale } from "../i18n";
import { formatMoney } from "../shared/format";
import { LiveElement } from "../shared/live-feed";
import { getJson, part } from "../shared/plain-element";
import { resolveProxyUrl } from "../shared/proxy-url";
import { readLeaderboard } from "../shared/read-feeds";
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
/** Seconds between polls where the live feed does not get through (as the wall's). */
export const DEFAULT_REFRESH_S = 30;

export interface LeaderboardProps {
  /** The live feed with this leaderboard in it, `…/live?of=`. */
  stream: string;
  /** The leaderboard alone, `…/leaderboard?of=&limit=`, where the feed does not get through. */
  url: string;
  pollS: number;
  of: LeaderboardKind;
  limit: number;
  donateUrl: URL;
}

/** The attributes as props, or the problem with the first bad one (for the `[givekit]` line). */
export function readLeaderboardAttributes(get: (name: string) => string | null): LeaderboardProps | string {
  const shortcode = get("shortcode") ?? "";
  const keyword = get("keyword") ?? "";
  if (!SHORTCODE_PATTERN.test(shortcode)) return `the "shortcode" attribute must be ${SHORTCODE_EXPECTED}.`;
  if (!KEYWORD_PATTERN.test(keyword)) return `the "keyword" attribute must be ${KEYWORD_EXPECTED}.`;
  const of = (get("of") ?? "teams") as LeaderboardKind;
  if (!LEADERBOARD_KINDS.includes(of)) return `the "of" attribute must be ${LEADERBOARD_OF_EXPECTED}.`;
  const limitText = get("limit");
  const limit = limitText === null ? DEFAULT_LIMIT : wholeNumber(limitText, 1, LEADERBOARD_LIMIT_MAX);
  if (limit === null) return `the "limit" attribute must be ${LEADERBOARD_LIMIT_EXPECTED}.`;
  const refresh = get("refresh");
  const pollS = refresh === null ? DEFAULT_REFRESH_S : wholeNumber(refresh, REFRESH_MIN_S);
  if (pollS === null) return `the "refresh" attribute must be ${REFRESH_EXPECTED}.`;
  const donateUrl = webUrl(get("donate-url") ?? location.href, location.href);
  if (!donateUrl) return 'the "donate-url" attribute must be an http or https URL.';
  const proxyUrl = resolveProxyUrl(get("proxy"));
  if (!proxyUrl) return 'the "proxy" attribute must be an http or https URL.';
  const base = `${proxyUrl}/v1/campaigns/${shortcode}/${encodeURIComponent(keyword)}`;
  return {
    stream: `${base}/live?of=${of}`,
    url: `${base}/leaderboard?of=${of}&limit=${limit}`,
    pollS,
    of,
    limit,
    donateUrl,
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

type Board = Pick<LeaderboardResponse, "leaders" | "currency"> & { updated_at?: string };

export class LeaderboardElement extends LiveElement<LeaderboardProps, Board> {
  static observedAttributes = LEADERBOARD_ATTRIBUTES;

  constructor() {
    super("leaderboard", css, readLeaderboardAttributes);
  }

  /** The message's leaders (a proxy that sends none is polled instead). */
  protected take(message: LiveMessage, props: LeaderboardProps): Board | null {
    const { leaders } = message;
    return leaders
      ? {
          leaders: leaders.slice(0, props.limit),
          currency: message.progress.currency,
          updated_at: message.progress.updated_at,
        }
      : null;
  }

  protected async poll(props: LeaderboardProps, fresh: boolean) {
    return readLeaderboard(await getJson(props.url, fresh));
  }

  protected reconnecting(age: string) {
    return this.t!.leaderboard.reconnecting(age);
  }

  protected show({ leaders, currency }: Board) {
    const t = this.t!.leaderboard;
    const props = this.props!;
    const locale = chooseLocale(this);
    const money = (amount: string) => formatMoney(toCents(amount), currency, locale, true);
    const heading = part("h2", "heading", props.of === "teams" ? t.teams : t.fundraisers);
    if (leaders.length === 0) return this.fill(heading, part("p", "empty", t.empty));
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
    this.fill(heading, list);
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
