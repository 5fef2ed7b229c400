/** The code of `<givekit-donate>`, loaded by widget.js when the first one appears on a page. */
import { defineDonateElement } from "../donate/element";
import { definer } from "./when-ready";

export const define = definer(import.meta.url, ["givekit-donate"], defineDonateElement);
