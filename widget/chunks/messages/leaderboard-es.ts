/** What <givekit-leaderboard> says in Spanish: loaded by widget.js beside the leaderboard chunk. */
import type { Catalog } from "../../i18n";
import { leaderboardEs } from "../../i18n/es";

export const messages: Catalog = { leaderboard: leaderboardEs };
