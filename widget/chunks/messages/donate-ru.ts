/** What <givekit-donate> says in Russian: loaded by widget.js beside the donate chunk. */
import type { Catalog } from "../../i18n";
import { commonRu, donateRu } from "../../i18n/ru";

export const messages: Catalog = { common: commonRu, donate: donateRu };
