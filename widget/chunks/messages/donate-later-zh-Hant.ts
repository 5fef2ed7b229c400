/** What <givekit-donate> says after its first step in Traditional Chinese: fetched with widget/donate/later.ts. */
import type { Catalog } from "../../i18n";
import { donateLaterZhHant } from "../../i18n/donate-later-zh-Hant";

export const messages: Catalog = { donateLater: donateLaterZhHant };
