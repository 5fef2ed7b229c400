/** What <givekit-donate> says in Simplified Chinese: loaded by widget.js beside the donate chunk. */
import type { Catalog } from "../../i18n";
import { commonZhHans, donateZhHans } from "../../i18n/zh-Hans";

export const messages: Catalog = { common: commonZhHans, donate: donateZhHans };
