/**
 * The code of `<givekit-button>`, loaded by widget.js when the first one appears on a page; it
 * asks widget.js for the donate form's code when the donor reaches for the button.
 */
import { defineButtonElement } from "../button/element";
import { definer } from "./when-ready";

export const define = definer(import.meta.url, ["givekit-button"], defineButtonElement);
