/** What <givekit-wall> says in Haitian Creole: loaded by widget.js beside the wall chunk. */
import type { Catalog } from "../../i18n";
import { wallHt } from "../../i18n/ht";

export const messages: Catalog = { wall: wallHt };
