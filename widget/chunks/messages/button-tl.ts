/** What <givekit-button> says in Tagalog: loaded by widget.js beside the button chunk. */
import type { Catalog } from "../../i18n";
import { buttonTl } from "../../i18n/tl";

export const messages: Catalog = { button: buttonTl };
