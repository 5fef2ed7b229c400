/** What <givekit-wall> says in Spanish: loaded by widget.js beside the wall chunk. */
import type { Catalog } from "../../i18n";
import { wallEs } from "../../i18n/es";

export const messages: Catalog = { wall: wallEs };
