/** What <givekit-donate> says in Traditional Chinese: loaded by widget.js beside the donate chunk. */
import type { Catalog } from "../../i18n";
import { commonZhHant, donateZhHant } from "../../i18n/zh-Hant";

export const messages: Catalog = { common: commonZhHant, donate: donateZhHant };
