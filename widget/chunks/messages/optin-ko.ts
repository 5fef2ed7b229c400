/** What <givekit-optin> says in Korean: loaded by widget.js beside the optin chunk. */
import type { Catalog } from "../../i18n";
import { commonKo, optinKo } from "../../i18n/ko";

export const messages: Catalog = { common: commonKo, optin: optinKo };
