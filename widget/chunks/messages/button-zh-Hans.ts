/** What <givekit-button> says in Simplified Chinese: loaded by widget.js beside the button chunk. */
import type { Catalog } from "../../i18n";
import { buttonZhHans } from "../../i18n/zh-Hans";

export const messages: Catalog = { button: buttonZhHans };
