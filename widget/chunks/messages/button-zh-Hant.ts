/** What <givekit-button> says in Traditional Chinese: loaded by widget.js beside the button chunk. */
import type { Catalog } from "../../i18n";
import { buttonZhHant } from "../../i18n/zh-Hant";

export const messages: Catalog = { button: buttonZhHant };
