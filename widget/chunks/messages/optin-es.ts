/** What <givekit-optin> says in Spanish: loaded by widget.js beside the optin chunk. */
import type { Catalog } from "../../i18n";
import { commonEs, optinEs } from "../../i18n/es";

export const messages: Catalog = { common: commonEs, optin: optinEs };
