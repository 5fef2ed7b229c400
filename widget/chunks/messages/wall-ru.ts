/** What <givekit-wall> says in Russian: loaded by widget.js beside the wall chunk. */
import type { Catalog } from "../../i18n";
import { wallRu } from "../../i18n/ru";

export const messages: Catalog = { wall: wallRu };
