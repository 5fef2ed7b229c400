/** What <givekit-donate> says in Tagalog: loaded by widget.js beside the donate chunk. */
import type { Catalog } from "../../i18n";
import { commonTl, donateTl } from "../../i18n/tl";

export const messages: Catalog = { common: commonTl, donate: donateTl };
