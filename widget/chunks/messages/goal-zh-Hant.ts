/** What <givekit-goal> says in Traditional Chinese: loaded by widget.js beside the goal chunk. */
import type { Catalog } from "../../i18n";
import { goalZhHant } from "../../i18n/zh-Hant";

export const messages: Catalog = { goal: goalZhHant };
