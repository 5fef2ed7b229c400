/** What <givekit-button> says in Russian: loaded by widget.js beside the button chunk. */
import type { Catalog } from "../../i18n";
import { buttonRu } from "../../i18n/ru";

export const messages: Catalog = { button: buttonRu };
