/** What <givekit-leaderboard> says in Haitian Creole: loaded by widget.js beside the leaderboard chunk. */
import type { Catalog } from "../../i18n";
import { leaderboardHt } from "../../i18n/ht";

export const messages: Catalog = { leaderboard: leaderboardHt };
