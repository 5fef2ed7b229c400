/** What <givekit-wall> says in Vietnamese: loaded by widget.js beside the wall chunk. */
import type { Catalog } from "../../i18n";
import { wallVi } from "../../i18n/vi";

export const messages: Catalog = { wall: wallVi };
