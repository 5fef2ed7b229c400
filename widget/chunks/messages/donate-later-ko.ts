/** What <givekit-donate> says after its first step in Korean: fetched with widget/donate/later.ts. */
import type { Catalog } from "../../i18n";
import { donateLaterKo } from "../../i18n/donate-later-ko";

export const messages: Catalog = { donateLater: donateLaterKo };
