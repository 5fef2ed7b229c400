/** What <givekit-donate> says in Arabic: loaded by widget.js beside the donate chunk. */
import type { Catalog } from "../../i18n";
import { commonAr, donateAr } from "../../i18n/ar";

export const messages: Catalog = { common: commonAr, donate: donateAr };
