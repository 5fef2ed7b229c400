/** What <givekit-button> says in French: loaded by widget.js beside the button chunk. */
import type { Catalog } from "../../i18n";
import { buttonFr } from "../../i18n/fr";

export const messages: Catalog = { button: buttonFr };
