/**
 * `<givekit-goal shortcode keyword>`: what a campaign has raised toward its goal, from the
 * proxy's progress route, refreshed on a timer and at once after a gift made through a givekit
 * form on the same page. Plain DOM, no Preact: it is small enough to be its own chunk.
 */
import { REFRESH_EXPECTED, REFRESH_MIN_S, wholeNumber } from "../../contract/element-rules";
import { toCents } from "../../contract/money";
import {
  KEYWORD_EXPECTED,
  KEYWORD_PATTERN,
  SHORTCODE_EXPECTED,
  SHORTCODE_PATTERN,
} from "../../contract/patterns";
import { chooseLocale } from "../i18n";
import { formatMoney } from "../shared/format";
import { getJson, part, PlainElement } from "../shared/plain-element";
import { resolveProxyUrl } from "../shared/proxy-url";
import css from "./goal.css?inline";
import { readProgress } from "../shared/read-progress";

export const GOAL_ATTRIBUTES = ["shortcode", "keyword", "refresh", "locale", "proxy"] as const;
/** Seconds between refreshes: the proxy caches progress for a minute (GIVEKIT_PROGRESS_CACHE_S). */
export const DEFAULT_REFRESH_S = 60;

interface GoalProps {
  url: string;
  refreshS: number;
}

/** The attributes as props, or the problem with the first bad one (for the `[givekit]` line). */
export function readGoalAttributes(get: (name: string) => string | null): GoalProps | string {
  const shortcode = get("shortcode") ?? "";
  const keyword = get("keyword") ?? "";
  if (!SHORTCODE_PATTERN.test(shortcode)) return `the "shortcode" attribute must be ${SHORTCODE_EXPECTED}.`;
  if (!KEYWORD_PATTERN.test(keyword)) return `the "keyword" attribute must be ${KEYWORD_EXPECTED}.`;
  const refresh = get("refresh");
  const refreshS = refresh === null ? DEFAULT_REFRESH_S : wholeNumber(refresh, REFRESH_MIN_S);
  if (refreshS === null) return `the "refresh" attribute must be ${REFRESH_EXPECTED}.`;
  const proxyUrl = resolveProxyUrl(get("proxy"));
  if (!proxyUrl) return 'the "proxy" attribute must be an http or https URL.';
  return { url: `${proxyUrl}/v1/campaigns/${shortcode}/${encodeURIComponent(keyword)}/progress`, refreshS };
}

export class GoalElement extends PlainElement<GoalProps> {
  static observedAttributes = GOAL_ATTRIBUTES;
  /** The figures' nodes, made once and updated in place. */
  #figures = (() => {
    const bar = part("div", "bar");
    bar.setAttribute("role", "progressbar");
    bar.setAttribute("aria-valuemin", "0");
    bar.setAttribute("aria-valuemax", "100");
    const fill = part("span", "bar-fill");
    bar.append(fill);
    return {
      raised: part("p", "raised"),
      ofGoal: part("p", "of-goal"),
      bar,
      fill,
      donors: part("p", "donors"),
    };
  })();
  #timer: ReturnType<typeof setInterval> | undefined;
  #shown = false;

  constructor() {
    super("goal", css, readGoalAttributes);
  }

  protected async begin(props: GoalProps) {
    this.#shown = false;
    this.#timer = setInterval(() => void this.#load(props, false), props.refreshS * 1000);
    await this.#load(props, false);
  }

  protected refresh(props: GoalProps) {
    void this.#load(props, true);
  }

  protected stop() {
    clearInterval(this.#timer);
  }

  async #load(props: GoalProps, fresh: boolean) {
    const progress = readProgress(await getJson(props.url, fresh));
    if (props !== this.props) return;
    if (progress) return this.#show(progress.raised, progress.goal, progress.donors, progress.currency);
    // A failure keeps the last figures shown; without any, a short note instead of an empty box.
    if (!this.#shown) this.note();
  }

  #show(raised: string, goal: string | null, donors: number, currency: string) {
    const t = this.t!.goal;
    const locale = chooseLocale(this);
    const money = (amount: string) => formatMoney(toCents(amount), currency, locale, true);
    const { raised: raisedText, ofGoal, bar, fill, donors: donorCount } = this.#figures;
    raisedText.textContent = t.raised(money(raised));
    donorCount.textContent = t.donors(donors);
    const hasGoal = goal !== null && toCents(goal) > 0;
    if (hasGoal) {
      ofGoal.textContent = t.ofGoal(money(goal));
      const percent = Math.min(100, Math.floor((toCents(raised) * 100) / toCents(goal)));
      bar.setAttribute("aria-label", t.barLabel);
      bar.setAttribute("aria-valuenow", String(percent));
      bar.setAttribute("aria-valuetext", t.barText(money(raised), money(goal), percent));
      // The same element each time: a new figure slides the bar along (goal.css's transition).
      fill.style.width = `${percent}%`;
    }
    const shown = hasGoal ? [raisedText, ofGoal, bar, donorCount] : [raisedText, donorCount];
    const children = [...this.root.children];
    if (shown.length !== children.length || shown.some((node, i) => node !== children[i]))
      this.root.replaceChildren(...shown);
    this.#shown = true;
  }
}

/**
 * Defines `<givekit-goal>` (once; calling it again does nothing).
 *
 * @example
 * defineGoalElement();
 * // <givekit-goal shortcode="71777" keyword="HOPE"></givekit-goal>
 */
export function defineGoalElement(): void {
  if (typeof customElements !== "undefined" && !customElements.get("givekit-goal"))
    customElements.define("givekit-goal", GoalElement);
}
