/** What <givekit-donate> says in Korean: loaded by widget.js beside the donate chunk. */
import type { Catalog } from "../../i18n";
import { commonKo, donateKo } from "../../i18n/ko";

export const messages: Catalog = { common: commonKo, donate: donateKo };
