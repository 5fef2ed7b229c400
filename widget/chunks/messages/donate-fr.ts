/** What <givekit-donate> says in French: loaded by widget.js beside the donate chunk. */
import type { Catalog } from "../../i18n";
import { commonFr, donateFr } from "../../i18n/fr";

export const messages: Catalog = { common: commonFr, donate: donateFr };
