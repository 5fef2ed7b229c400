/** What <givekit-donate> says in Vietnamese: loaded by widget.js beside the donate chunk. */
import type { Catalog } from "../../i18n";
import { commonVi, donateVi } from "../../i18n/vi";

export const messages: Catalog = { common: commonVi, donate: donateVi };
