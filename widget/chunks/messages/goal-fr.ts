/** What <givekit-goal> says in French: loaded by widget.js beside the goal chunk. */
import type { Catalog } from "../../i18n";
import { goalFr } from "../../i18n/fr";

export const messages: Catalog = { goal: goalFr };
