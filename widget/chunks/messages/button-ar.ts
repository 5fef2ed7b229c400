/** What <givekit-button> says in Arabic: loaded by widget.js beside the button chunk. */
import type { Catalog } from "../../i18n";
import { buttonAr } from "../../i18n/ar";

export const messages: Catalog = { button: buttonAr };
