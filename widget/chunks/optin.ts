/** The code of `<givekit-optin>`, loaded by widget.js when the first one appears on a page. */
import { defineOptinElement } from "../optin/element";
import { definer } from "./when-ready";

export const define = definer(import.meta.url, ["givekit-optin"], defineOptinElement);
