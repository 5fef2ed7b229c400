/** The code of `<givekit-goal>`, loaded by widget.js when the first one appears on a page. */
import { defineGoalElement } from "../goal/element";
import { definer } from "./when-ready";

export const define = definer(import.meta.url, ["givekit-goal"], defineGoalElement);
