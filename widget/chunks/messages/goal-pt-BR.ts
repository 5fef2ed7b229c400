/** What <givekit-goal> says in Brazilian Portuguese: loaded by widget.js beside the goal chunk. */
import type { Catalog } from "../../i18n";
import { goalPtBR } from "../../i18n/pt-BR";

export const messages: Catalog = { goal: goalPtBR };
