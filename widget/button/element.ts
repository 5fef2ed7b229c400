/**
 * `<givekit-button shortcode keyword …>`: a button that opens the donate form in a modal dialog.
 * Plain DOM, no Preact, so its chunk stays small: the form (and its card frame) is created on
 * the first open, its code fetched when the donor reaches for the button.
 */
import { DONATE_ATTRIBUTES } from "../../contract/donate-attributes";
import { chooseLocale, isRtl, loadedMessages, loadMessages } from "../i18n";
import type { NeedElement } from "../loader";
import { tellCardFrame } from "../shared/tell-card-frame";
import { adoptStyles } from "../shared/styles";
import css from "./button.css?inline";

/** The button's own `label`, and every attribute of the form, which it hands on. */
export const BUTTON_ATTRIBUTES = ["label", ...DONATE_ATTRIBUTES];
const FORM = "givekit-donate";

/** The form's element is defined already (givekit.js, the `all` chunk) unless widget.js gives a way to ask. */
let need: NeedElement = () => undefined;

function part<K extends keyof HTMLElementTagNameMap>(tag: K, name: string): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  element.setAttribute("part", name);
  return element;
}

export class ButtonElement extends HTMLElement {
  static observedAttributes = BUTTON_ATTRIBUTES;
  #button = part("button", "button");
  #dialog = part("dialog", "dialog");
  #close = part("button", "close");
  /** The donate form, made on the first open. */
  #form: (HTMLElement & { busy?: boolean }) | null = null;

  connectedCallback() {
    if (!this.shadowRoot) {
      const shadow = this.attachShadow({ mode: "open" });
      adoptStyles(shadow, css);
      const [button, dialog, close] = [this.#button, this.#dialog, this.#close];
      button.type = close.type = "button";
      button.setAttribute("aria-haspopup", "dialog");
      close.textContent = "×";
      dialog.append(close);
      shadow.append(button, dialog);
      // The form's code, as the donor reaches for the button: by the click it is on its way.
      const prefetch = () => need(FORM, chooseLocale(this));
      button.addEventListener("pointerenter", prefetch);
      button.addEventListener("focus", prefetch);
      button.addEventListener("click", () => this.#open());
      close.addEventListener("click", () => this.#busy() || dialog.close());
      // Escape closes, but not while a donation is in flight.
      dialog.addEventListener("cancel", (event) => this.#busy() && event.preventDefault());
      // A browser closes anyway on a second Escape in a row: the donation is still under way, so it opens again.
      dialog.addEventListener("close", () => (this.#busy() ? dialog.showModal() : this.#closed()));
    }
    this.#label();
  }

  attributeChangedCallback(name: string) {
    if (name !== "label") this.#copy(name);
    if (name === "label" || name === "locale") this.#label();
  }

  /** The donor closed the form: the focus goes back to the button, and the form's card frame counts it. */
  #closed() {
    this.#button.focus();
    if (this.#form) tellCardFrame(this.#form, { type: "givekit:step", code: "closed" });
  }

  #busy(): boolean {
    return this.#form?.busy === true;
  }

  #open() {
    if (!this.#form) {
      need(FORM, chooseLocale(this));
      this.#form = document.createElement(FORM);
      for (const name of DONATE_ATTRIBUTES) this.#copy(name);
      this.#dialog.append(this.#form);
    }
    if (!this.#dialog.open) this.#dialog.showModal();
  }

  /** Hands an attribute on to the form, once there is one. */
  #copy(name: string) {
    const value = this.getAttribute(name);
    if (!this.#form) return;
    if (value === null) this.#form.removeAttribute(name);
    else this.#form.setAttribute(name, value);
  }

  #label() {
    const locale = chooseLocale(this);
    const t = loadedMessages(locale)?.button;
    if (!t) {
      loadMessages(locale).then(
        (messages) => messages.button && this.#label(),
        () => console.error("[givekit] <givekit-button>: its messages could not be loaded."),
      );
      return;
    }
    const label = this.getAttribute("label");
    this.#button.textContent = label || t.label;
    this.#dialog.setAttribute("aria-label", label || t.label);
    this.#dialog.lang = locale;
    this.#dialog.dir = isRtl(locale) ? "rtl" : "ltr";
    this.#close.setAttribute("aria-label", t.close);
  }
}

/**
 * Defines `<givekit-button>` (once; calling it again does nothing). widget.js hands it `ask`,
 * to fetch the form's code; without it the form must be defined already (defineElements()).
 *
 * @example
 * defineButtonElement();
 * // <givekit-button shortcode="71777" keyword="HOPE"></givekit-button>
 */
export function defineButtonElement(ask?: NeedElement): void {
  if (ask) need = ask;
  if (typeof customElements !== "undefined" && !customElements.get("givekit-button"))
    customElements.define("givekit-button", ButtonElement);
}
