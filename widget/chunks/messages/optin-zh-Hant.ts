/** What <givekit-optin> says in Traditional Chinese: loaded by widget.js beside the optin chunk. */
import type { Catalog } from "../../i18n";
import { commonZhHant, optinZhHant } from "../../i18n/zh-Hant";

export const messages: Catalog = { common: commonZhHant, optin: optinZhHant };
