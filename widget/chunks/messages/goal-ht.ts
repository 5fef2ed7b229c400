/** What <givekit-goal> says in Haitian Creole: loaded by widget.js beside the goal chunk. */
import type { Catalog } from "../../i18n";
import { goalHt } from "../../i18n/ht";

export const messages: Catalog = { goal: goalHt };
