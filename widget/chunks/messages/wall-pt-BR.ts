/** What <givekit-wall> says in Brazilian Portuguese: loaded by widget.js beside the wall chunk. */
import type { Catalog } from "../../i18n";
import { wallPtBR } from "../../i18n/pt-BR";

export const messages: Catalog = { wall: wallPtBR };
