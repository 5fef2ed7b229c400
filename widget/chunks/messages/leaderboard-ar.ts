/** What <givekit-leaderboard> says in Arabic: loaded by widget.js beside the leaderboard chunk. */
import type { Catalog } from "../../i18n";
import { leaderboardAr } from "../../i18n/ar";

export const messages: Catalog = { leaderboard: leaderboardAr };
