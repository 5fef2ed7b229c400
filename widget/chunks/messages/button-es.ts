/** What <givekit-button> says in Spanish: loaded by widget.js beside the button chunk. */
import type { Catalog } from "../../i18n";
import { buttonEs } from "../../i18n/es";

export const messages: Catalog = { button: buttonEs };
