/** What <givekit-wall> says in French: loaded by widget.js beside the wall chunk. */
import type { Catalog } from "../../i18n";
import { wallFr } from "../../i18n/fr";

export const messages: Catalog = { wall: wallFr };
