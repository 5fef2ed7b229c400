/** What <givekit-optin> says in Brazilian Portuguese: loaded by widget.js beside the optin chunk. */
import type { Catalog } from "../../i18n";
import { commonPtBR, optinPtBR } from "../../i18n/pt-BR";

export const messages: Catalog = { common: commonPtBR, optin: optinPtBR };
