/** What <givekit-button> says in Brazilian Portuguese: loaded by widget.js beside the button chunk. */
import type { Catalog } from "../../i18n";
import { buttonPtBR } from "../../i18n/pt-BR";

export const messages: Catalog = { button: buttonPtBR };
