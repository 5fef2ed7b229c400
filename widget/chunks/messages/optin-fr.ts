/** What <givekit-optin> says in French: loaded by widget.js beside the optin chunk. */
import type { Catalog } from "../../i18n";
import { commonFr, optinFr } from "../../i18n/fr";

export const messages: Catalog = { common: commonFr, optin: optinFr };
