/** What <givekit-donate> says after its first step in Spanish: fetched with widget/donate/later.ts. */
import type { Catalog } from "../../i18n";
import { donateLaterEs } from "../../i18n/donate-later-es";

export const messages: Catalog = { donateLater: donateLaterEs };
