/** What <givekit-donate> says in English: loaded by widget.js beside the donate chunk. */
import type { Catalog } from "../../i18n";
import { commonEn, donateEn } from "../../i18n/en";

export const messages: Catalog = { common: commonEn, donate: donateEn };
