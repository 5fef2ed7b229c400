/** What <givekit-optin> says in Haitian Creole: loaded by widget.js beside the optin chunk. */
import type { Catalog } from "../../i18n";
import { commonHt, optinHt } from "../../i18n/ht";

export const messages: Catalog = { common: commonHt, optin: optinHt };
