/** What <givekit-donate> says after its first step in Tagalog: fetched with widget/donate/later.ts. */
import type { Catalog } from "../../i18n";
import { donateLaterTl } from "../../i18n/donate-later-tl";

export const messages: Catalog = { donateLater: donateLaterTl };
