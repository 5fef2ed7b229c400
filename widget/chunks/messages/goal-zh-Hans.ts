/** What <givekit-goal> says in Simplified Chinese: loaded by widget.js beside the goal chunk. */
import type { Catalog } from "../../i18n";
import { goalZhHans } from "../../i18n/zh-Hans";

export const messages: Catalog = { goal: goalZhHans };
