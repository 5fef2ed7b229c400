/** What <givekit-donate> says after its first step in English: fetched with widget/donate/later.ts. */
import type { Catalog } from "../../i18n";
import { donateLaterEn } from "../../i18n/donate-later-en";

export const messages: Catalog = { donateLater: donateLaterEn };
