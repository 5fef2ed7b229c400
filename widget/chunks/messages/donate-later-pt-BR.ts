/** What <givekit-donate> says after its first step in Brazilian Portuguese: fetched with widget/donate/later.ts. */
import type { Catalog } from "../../i18n";
import { donateLaterPtBR } from "../../i18n/donate-later-pt-BR";

export const messages: Catalog = { donateLater: donateLaterPtBR };
