/** What <givekit-donate> says after its first step in Haitian Creole: fetched with widget/donate/later.ts. */
import type { Catalog } from "../../i18n";
import { donateLaterHt } from "../../i18n/donate-later-ht";

export const messages: Catalog = { donateLater: donateLaterHt };
