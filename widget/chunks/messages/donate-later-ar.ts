/** What <givekit-donate> says after its first step in Arabic: fetched with widget/donate/later.ts. */
import type { Catalog } from "../../i18n";
import { donateLaterAr } from "../../i18n/donate-later-ar";

export const messages: Catalog = { donateLater: donateLaterAr };
