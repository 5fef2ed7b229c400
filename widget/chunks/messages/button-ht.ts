/** What <givekit-button> says in Haitian Creole: loaded by widget.js beside the button chunk. */
import type { Catalog } from "../../i18n";
import { buttonHt } from "../../i18n/ht";

export const messages: Catalog = { button: buttonHt };
