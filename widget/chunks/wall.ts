/** The code of `<givekit-wall>`, loaded by widget.js when the first one appears on a page. */
import { defineWallElement } from "../wall/element";
import { definer } from "./when-ready";

export const define = definer(import.meta.url, ["givekit-wall"], defineWallElement);
