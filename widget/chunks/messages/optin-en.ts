/** What <givekit-optin> says in English: loaded by widget.js beside the optin chunk. */
import type { Catalog } from "../../i18n";
import { commonEn, optinEn } from "../../i18n/en";

export const messages: Catalog = { common: commonEn, optin: optinEn };
