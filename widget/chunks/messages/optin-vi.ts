/** What <givekit-optin> says in Vietnamese: loaded by widget.js beside the optin chunk. */
import type { Catalog } from "../../i18n";
import { commonVi, optinVi } from "../../i18n/vi";

export const messages: Catalog = { common: commonVi, optin: optinVi };
