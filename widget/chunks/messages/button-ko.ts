/** What <givekit-button> says in Korean: loaded by widget.js beside the button chunk. */
import type { Catalog } from "../../i18n";
import { buttonKo } from "../../i18n/ko";

export const messages: Catalog = { button: buttonKo };
