/** What <givekit-button> says in Vietnamese: loaded by widget.js beside the button chunk. */
import type { Catalog } from "../../i18n";
import { buttonVi } from "../../i18n/vi";

export const messages: Catalog = { button: buttonVi };
