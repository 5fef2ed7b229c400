/** What <givekit-goal> says in Russian: loaded by widget.js beside the goal chunk. */
import type { Catalog } from "../../i18n";
import { goalRu } from "../../i18n/ru";

export const messages: Catalog = { goal: goalRu };
