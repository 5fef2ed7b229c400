/** What <givekit-wall> says in Traditional Chinese: loaded by widget.js beside the wall chunk. */
import type { Catalog } from "../../i18n";
import { wallZhHant } from "../../i18n/zh-Hant";

export const messages: Catalog = { wall: wallZhHant };
