/** What <givekit-donate> says after its first step in French: fetched with widget/donate/later.ts. */
import type { Catalog } from "../../i18n";
import { donateLaterFr } from "../../i18n/donate-later-fr";

export const messages: Catalog = { donateLater: donateLaterFr };
