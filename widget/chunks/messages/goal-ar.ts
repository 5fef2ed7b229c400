/** What <givekit-goal> says in Arabic: loaded by widget.js beside the goal chunk. */
import type { Catalog } from "../../i18n";
import { goalAr } from "../../i18n/ar";

export const messages: Catalog = { goal: goalAr };
