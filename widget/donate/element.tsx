// The form first, define-element (and its catalogs) last: see DonateWidget.tsx's imports.
import { DonateWidget } from "./DonateWidget";
import { DONATE_ATTRIBUTES, readDonateAttributes } from "./base/attributes";
import css from "./donate.css?inline";
import { loadLater } from "./load-later";
import { defineGivekitElement } from "../shared/define-element";

/**
 * Defines `<givekit-donate>` (once; calling it again does nothing).
 *
 * @example
 * defineDonateElement();
 * document.body.insertAdjacentHTML("beforeend", '<givekit-donate shortcode="71777" keyword="HOPE"></givekit-donate>');
 */
export function defineDonateElement(): void {
  defineGivekitElement({
    tag: "givekit-donate",
    attributes: DONATE_ATTRIBUTES,
    css,
    readAttributes: (get) => readDonateAttributes(get),
    Component: DonateWidget,
    // The rest of the form's words in the new language (its first step's are the catalog's).
    prepare: loadLater,
  });
}
