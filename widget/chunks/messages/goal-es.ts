/** What <givekit-goal> says in Spanish: loaded by widget.js beside the goal chunk. */
import type { Catalog } from "../../i18n";
import { goalEs } from "../../i18n/es";

export const messages: Catalog = { goal: goalEs };
