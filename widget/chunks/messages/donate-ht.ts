/** What <givekit-donate> says in Haitian Creole: loaded by widget.js beside the donate chunk. */
import type { Catalog } from "../../i18n";
import { commonHt, donateHt } from "../../i18n/ht";

export const messages: Catalog = { common: commonHt, donate: donateHt };
