/** What <givekit-donate> says in Brazilian Portuguese: loaded by widget.js beside the donate chunk. */
import type { Catalog } from "../../i18n";
import { commonPtBR, donatePtBR } from "../../i18n/pt-BR";

export const messages: Catalog = { common: commonPtBR, donate: donatePtBR };
