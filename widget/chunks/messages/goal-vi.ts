/** What <givekit-goal> says in Vietnamese: loaded by widget.js beside the goal chunk. */
import type { Catalog } from "../../i18n";
import { goalVi } from "../../i18n/vi";

export const messages: Catalog = { goal: goalVi };
