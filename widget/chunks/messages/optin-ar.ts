/** What <givekit-optin> says in Arabic: loaded by widget.js beside the optin chunk. */
import type { Catalog } from "../../i18n";
import { commonAr, optinAr } from "../../i18n/ar";

export const messages: Catalog = { common: commonAr, optin: optinAr };
