/** What <givekit-optin> says in Simplified Chinese: loaded by widget.js beside the optin chunk. */
import type { Catalog } from "../../i18n";
import { commonZhHans, optinZhHans } from "../../i18n/zh-Hans";

export const messages: Catalog = { common: commonZhHans, optin: optinZhHans };
