/** What <givekit-donate> says after its first step in Russian: fetched with widget/donate/later.ts. */
import type { Catalog } from "../../i18n";
import { donateLaterRu } from "../../i18n/donate-later-ru";

export const messages: Catalog = { donateLater: donateLaterRu };
