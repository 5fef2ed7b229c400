/** What <givekit-goal> says in English: loaded by widget.js beside the goal chunk. */
import type { Catalog } from "../../i18n";
import { goalEn } from "../../i18n/en";

export const messages: Catalog = { goal: goalEn };
