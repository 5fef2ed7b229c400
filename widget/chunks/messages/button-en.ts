/** What <givekit-button> says in English: loaded by widget.js beside the button chunk. */
import type { Catalog } from "../../i18n";
import { buttonEn } from "../../i18n/en";

export const messages: Catalog = { button: buttonEn };
