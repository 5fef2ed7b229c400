/** What <givekit-wall> says in Simplified Chinese: loaded by widget.js beside the wall chunk. */
import type { Catalog } from "../../i18n";
import { wallZhHans } from "../../i18n/zh-Hans";

export const messages: Catalog = { wall: wallZhHans };
