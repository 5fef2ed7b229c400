/** What <givekit-donate> says after its first step in Vietnamese: fetched with widget/donate/later.ts. */
import type { Catalog } from "../../i18n";
import { donateLaterVi } from "../../i18n/donate-later-vi";

export const messages: Catalog = { donateLater: donateLaterVi };
