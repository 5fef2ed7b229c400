/** What <givekit-donate> says after its first step in Simplified Chinese: fetched with widget/donate/later.ts. */
import type { Catalog } from "../../i18n";
import { donateLaterZhHans } from "../../i18n/donate-later-zh-Hans";

export const messages: Catalog = { donateLater: donateLaterZhHans };
