/**
 * `<givekit-goal shortcode keyword>`: what a campaign has raised toward its goal, from the
 * proxy's progress route, refreshed on a timer and at once after a gift made through a givekit
 * form on the same page. Plain DOM, no Preact: it is small enough to be its own chunk.
 */
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
import css from "./goal.css?inline";
import { readProgress } from "./progress";

export const GOAL_ATTRIBUTES = ["shortcode", "keyword", "refresh", "locale", "proxy"] as const;
/** Seconds between refreshes: the proxy caches progress for a minute (GIVEKIT_PROGRESS_CACHE_S). */
export const DEFAULT_REFRESH_S = 60;
/** The shortest refresh a page may ask for: more often only repeats the proxy's cached answer. */
export const MIN_REFRESH_S = 15;

interface GoalProps {
  path: string;
  proxyUrl: string;
  refreshS: number;
}

/** The attributes as props, or the problem with the first bad one (for the `[givekit]` line). */
export function readGoalAttributes(get: (name: string) => string | null): GoalProps | string {
  const shortcode = get("shortcode") ?? "";
  const keyword = get("keyword") ?? "";
  if (!SHORTCODE_PATTERN.test(shortcode)) return `the "shortcode" attribute must be ${SHORTCODE_EXPECTED}.`;
  if (!KEYWORD_PATTERN.test(keyword)) return `the "keyword" attribute must be ${KEYWORD_EXPECTED}.`;
  const refresh = get("refresh");
  const refreshS = refresh === null ? DEFAULT_REFRESH_S : Number(refresh);
  if (!Number.isInteger(refreshS) || refreshS < MIN_REFRESH_S)
    return `the "refresh" attribute must be a whole number of seconds, at least ${MIN_REFRESH_S}.`;
  const proxyUrl = resolveProxyUrl(get("proxy"));
  if (!proxyUrl) return 'the "proxy" attribute must be an http or https URL.';
  return { path: `/v1/campaigns/${shortcode}/${encodeURIComponent(keyword)}/progress`, proxyUrl, refreshS };
}

function part<K extends keyof HTMLElementTagNameMap>(tag: K, name: string, className = `gk-${name}`) {
  const element = document.createElement(tag);
  element.setAttribute("part", name);
  element.className = className;
  return element;
}

export class GoalElement extends HTMLElement {
  static observedAttributes = GOAL_ATTRIBUTES;
  #root = part("div", "goal", "gk-root gk-goal");
  /** The figures' nodes, made once and updated in place. */
  #figures = (() => {
    const bar = part("div", "bar");
    bar.setAttribute("role", "progressbar");
    bar.setAttribute("aria-valuemin", "0");
    bar.setAttribute("aria-valuemax", "100");
    const fill = part("span", "bar-fill", "");
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
  #props: GoalProps | null = null;
  #t: Messages | null = null;
  #shown = false;
  /** Bumped by each start: an older start that finds it moved on stops. */
  #run = 0;
  /** A gift through a givekit form on this page: the figures move at once. */
  #onDonation = (event: Event) => {
    const { status } = (event as CustomEvent<GivekitEventMap["givekit:donation"]>).detail ?? {};
    if (status === "Success") void this.#load(true);
  };

  connectedCallback() {
    if (!this.shadowRoot) {
      const shadow = this.attachShadow({ mode: "open" });
      adoptStyles(shadow, css);
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
    const props = readGoalAttributes((name) => this.getAttribute(name));
    if (typeof props === "string") {
      console.error(`[givekit] <givekit-goal>: ${props}`);
      this.#props = null;
      return this.#note();
    }
    this.#props = props;
    await this.#load(false);
    if (run !== this.#run) return;
    this.#timer = setInterval(() => void this.#load(false), props.refreshS * 1000);
    emit(this, "givekit:ready", { widget: "goal" });
  }

  async #load(fresh: boolean) {
    const props = this.#props;
    if (!props) return;
    // Not the forms' API client: its problem reader would double this chunk, and a failure
    // here is shown the same whatever it was.
    const response = await fetch(props.proxyUrl + props.path, {
      credentials: "omit",
      headers: { Accept: "application/json" },
      cache: fresh ? "no-cache" : "default",
    }).catch(() => null);
    const body: unknown = response?.ok ? await response.json().catch(() => null) : null;
    if (props !== this.#props) return;
    const progress = readProgress(body);
    if (progress) return this.#show(progress.raised, progress.goal, progress.donors, progress.currency);
    // A failure keeps the last figures shown; without any, a short note instead of an empty box.
    if (!this.#shown) this.#note();
  }

  #show(raised: string, goal: string | null, donors: number, currency: string) {
    const t = this.#t!.goal;
    const locale = localeOf(this.getAttribute("locale"));
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
    const children = [...this.#root.children];
    if (shown.length !== children.length || shown.some((node, i) => node !== children[i]))
      this.#root.replaceChildren(...shown);
    this.#shown = true;
  }

  #note() {
    const note = part("p", "fallback", "gk-fallback");
    note.setAttribute("role", "note");
    note.textContent = this.#t?.goal.unavailable ?? "";
    this.#root.replaceChildren(note);
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
