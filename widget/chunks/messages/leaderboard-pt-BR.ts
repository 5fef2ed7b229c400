/** What <givekit-leaderboard> says in Brazilian Portuguese: loaded by widget.js beside the leaderboard chunk. */
import type { Catalog } from "../../i18n";
import { leaderboardPtBR } from "../../i18n/pt-BR";

export const messages: Catalog = { leaderboard: leaderboardPtBR };
