import { render, type ComponentType } from "preact";
import { chooseLocale, loadedMessages, loadMessages, type Locale } from "../i18n";
import type { AttributeResult } from "./attributes";
import { dropCardFrame } from "./card-frame";
import { Fallback } from "./Fallback";
import formCss from "./forms.css?inline";
import { adoptStyles } from "./styles";

export interface ElementSpec<P> {
  tag: string;
  attributes: readonly string[];
  css: string;
  /** Validates the attributes at mount; a bad one is named in `problem`. */
  readAttributes: (get: (name: string) => string | null, host: HTMLElement) => AttributeResult<P>;
  Component: ComponentType<P & { host: HTMLElement }>;
  /** When the element changes language: what it says in it beyond its catalog, fetched first. */
  prepare?: (locale: Locale) => Promise<unknown>;
}

/**
 * Defines a givekit custom element once: it renders its Preact component into an open
 * shadow root (once its language's messages are loaded), re-renders when an observed attribute
 * changes, and shows a polite fallback (after logging `[givekit] …`) when an attribute is invalid.
 */
export function defineGivekitElement<P>(spec: ElementSpec<P>): void {
  if (typeof customElements === "undefined" || customElements.get(spec.tag)) return;

  class GivekitElement extends HTMLElement {
    static observedAttributes = spec.attributes;
    #root: HTMLDivElement | null = null;
    /** The language its words are ready in (null before the first). */
    #ready: Locale | null = null;

    /**
     * True while the form is sending (a donation between Donate and its answer): its form is
     * then `aria-busy`. What a dialog holding the form asks before it lets itself be closed.
     *
     * @example
     * dialog.addEventListener("cancel", (event) => donate.busy && event.preventDefault());
     */
    get busy(): boolean {
      return Boolean(this.#root?.querySelector('[aria-busy="true"]'));
    }

    connectedCallback() {
      if (!this.#root) {
        const shadow = this.shadowRoot ?? this.attachShadow({ mode: "open" });
        adoptStyles(shadow, formCss + spec.css);
        this.#root = document.createElement("div");
        this.#root.setAttribute("part", "root");
        this.#root.className = "gk-root";
        shadow.append(this.#root);
      }
      this.#render();
    }

    attributeChangedCallback() {
      if (this.#root && this.isConnected) this.#render();
    }

    disconnectedCallback() {
      if (this.#root) render(null, this.#root);
    }

    #render() {
      const locale = chooseLocale(this);
      const first = !this.#ready;
      if (loadedMessages(locale) && (first || !spec.prepare)) this.#ready = locale;
      if (this.#ready !== locale) {
        // Its language's messages first (a chunk of their own), and in a change of language (the
        // donor's switch, a page's script) what it says beyond them; a failed load shows nothing
        // new. Meanwhile the placeholder keeps the element's room (room.css), or the form stays
        // as it is, with what was typed in it and its card frame.
        if (first) render(<div class="gk-loading" />, this.#root!);
        // One after the other: a catalog that has it all (givekit.js's) leaves prepare nothing to fetch.
        loadMessages(locale)
          .then(() => !first && spec.prepare?.(locale))
          .then(
            () => {
              this.#ready = locale;
              if (this.isConnected) this.#render();
            },
            () => console.error(`[givekit] <${spec.tag}>: its messages could not be loaded.`),
          );
        return;
      }
      const result = spec.readAttributes((name) => this.getAttribute(name), this);
      if (!result.ok) {
        console.error(`[givekit] <${spec.tag}>: ${result.problem}`);
        dropCardFrame(this);
        render(<Fallback lang={locale} />, this.#root!);
        return;
      }
      const { Component } = spec;
      render(<Component {...result.props} host={this} />, this.#root!);
    }
  }

  customElements.define(spec.tag, GivekitElement);
}
