/** What <givekit-optin> says in Russian: loaded by widget.js beside the optin chunk. */
import type { Catalog } from "../../i18n";
import { commonRu, optinRu } from "../../i18n/ru";

export const messages: Catalog = { common: commonRu, optin: optinRu };
