/** What <givekit-goal> says in Tagalog: loaded by widget.js beside the goal chunk. */
import type { Catalog } from "../../i18n";
import { goalTl } from "../../i18n/tl";

export const messages: Catalog = { goal: goalTl };
