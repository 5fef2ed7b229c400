/** What <givekit-donate> says in Spanish: loaded by widget.js beside the donate chunk. */
import type { Catalog } from "../../i18n";
import { commonEs, donateEs } from "../../i18n/es";

export const messages: Catalog = { common: commonEs, donate: donateEs };
