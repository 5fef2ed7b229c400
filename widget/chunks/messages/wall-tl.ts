/** What <givekit-wall> says in Tagalog: loaded by widget.js beside the wall chunk. */
import type { Catalog } from "../../i18n";
import { wallTl } from "../../i18n/tl";

export const messages: Catalog = { wall: wallTl };
