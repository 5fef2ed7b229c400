/**
 * What the plain-DOM elements (<givekit-goal>, <givekit-wall>, <givekit-leaderboard>) share: a
 * shadow root with their adopted styles, a start on each connection and attribute change (their
 * words loaded, their attributes read, a `[givekit] <givekit-NAME>:` line and a polite note for a
 * bad one), a fresh look at once after a gift through a givekit form on the page, and
 * `givekit:ready` once they first show something. No Preact: each stays small enough to be its
 * own chunk.
 */
import { chooseLocale, isRtl, loadMessages, type Messages } from "../i18n";
import { emit, type GivekitEventMap } from "./events";
import { adoptStyles } from "./styles";

export type PlainWidget = "goal" | "wall" | "leaderboard";
/** An element's attributes as props, or the problem with the first bad one (for the `[givekit]` line). */
export type AttributeReader<Props> = (get: (name: string) => string | null) => Props | string;

/** An element of the shadow tree, with its `part` (for ::part theming) and its `gk-` class. */
export function part<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  name: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  element.setAttribute("part", name);
  element.className = `gk-${name}`;
  if (text !== undefined) element.textContent = text;
  return element;
}

/** A JSON answer from the proxy, or null for any failure (each is shown the same). */
export async function getJson(url: string, fresh: boolean): Promise<unknown> {
  // Not the forms' API client: its problem reader would double these chunks.
  const response = await fetch(url, {
    credentials: "omit",
    headers: { Accept: "application/json" },
    cache: fresh ? "no-cache" : "default",
  }).catch(() => null);
  return response?.ok ? response.json().catch(() => null) : null;
}

export abstract class PlainElement<Props> extends HTMLElement {
  /** The shadow tree's box (`part` the widget's name, class `gk-root`). */
  protected root: HTMLDivElement;
  /** The attributes read, or null while they are bad (or not read yet). */
  protected props: Props | null = null;
  protected t: Messages | null = null;
  #widget: PlainWidget;
  #css: string;
  /** The attributes as props, or the problem with the first bad one. */
  #read: AttributeReader<Props>;
  /** Bumped by each start: an older start that finds it moved on stops. */
  #run = 0;
  /** A gift through a givekit form on this page: the figures move at once. */
  #onDonation = (event: Event) => {
    const { status } = (event as CustomEvent<GivekitEventMap["givekit:donation"]>).detail ?? {};
    if (status === "Success" && this.props) this.refresh(this.props);
  };

  constructor(widget: PlainWidget, css: string, read: AttributeReader<Props>) {
    super();
    this.#widget = widget;
    this.#css = css;
    this.#read = read;
    this.root = part("div", widget);
    this.root.className = `gk-root gk-${widget}`;
  }

  /** Shows the first figures and keeps them fresh; settles once something is shown. */
  protected abstract begin(props: Props): Promise<void>;
  /** Asks again at once, past any cache. */
  protected abstract refresh(props: Props): void;
  /** Stops what begin() keeps going. */
  protected abstract stop(): void;

  connectedCallback() {
    if (!this.shadowRoot) {
      const shadow = this.attachShadow({ mode: "open" });
      adoptStyles(shadow, this.#css);
      shadow.append(this.root);
    }
    document.addEventListener("givekit:donation", this.#onDonation);
    void this.#start();
  }

  disconnectedCallback() {
    document.removeEventListener("givekit:donation", this.#onDonation);
    this.#run++;
    this.stop();
  }

  attributeChangedCallback() {
    if (this.isConnected && this.shadowRoot) void this.#start();
  }

  async #start() {
    const run = ++this.#run;
    this.stop();
    const locale = chooseLocale(this);
    const t = await loadMessages(locale).catch(() => null);
    if (run !== this.#run) return;
    this.t = t;
    // Its own language and direction, as the forms say theirs (an Arabic wall reads right to left).
    this.root.lang = locale;
    this.root.dir = isRtl(locale) ? "rtl" : "ltr";
    const props = this.#read((name) => this.getAttribute(name));
    if (typeof props === "string") {
      console.error(`[givekit] <givekit-${this.#widget}>: ${props}`);
      this.props = null;
      return this.note();
    }
    this.props = props;
    await this.begin(props);
    if (run === this.#run) emit(this, "givekit:ready", { widget: this.#widget });
  }

  /** A short note in place of the figures, never an empty box. */
  protected note() {
    const note = part("p", "fallback", this.t?.[this.#widget].unavailable ?? "");
    note.setAttribute("role", "note");
    this.root.replaceChildren(note);
  }
}
