/** What <givekit-optin> says in Tagalog: loaded by widget.js beside the optin chunk. */
import type { Catalog } from "../../i18n";
import { commonTl, optinTl } from "../../i18n/tl";

export const messages: Catalog = { common: commonTl, optin: optinTl };
