/** What <givekit-goal> says in Korean: loaded by widget.js beside the goal chunk. */
import type { Catalog } from "../../i18n";
import { goalKo } from "../../i18n/ko";

export const messages: Catalog = { goal: goalKo };
