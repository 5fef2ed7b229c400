/** What <givekit-wall> says in Korean: loaded by widget.js beside the wall chunk. */
import type { Catalog } from "../../i18n";
import { wallKo } from "../../i18n/ko";

export const messages: Catalog = { wall: wallKo };
