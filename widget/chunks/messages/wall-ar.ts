/** What <givekit-wall> says in Arabic: loaded by widget.js beside the wall chunk. */
import type { Catalog } from "../../i18n";
import { wallAr } from "../../i18n/ar";

export const messages: Catalog = { wall: wallAr };
