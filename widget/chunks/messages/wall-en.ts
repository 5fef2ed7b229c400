/** What <givekit-wall> says in English: loaded by widget.js beside the wall chunk. */
import type { Catalog } from "../../i18n";
import { wallEn } from "../../i18n/en";

export const messages: Catalog = { wall: wallEn };
