/** What <givekit-leaderboard> says in French: loaded by widget.js beside the leaderboard chunk. */
import type { Catalog } from "../../i18n";
import { leaderboardFr } from "../../i18n/fr";

export const messages: Catalog = { leaderboard: leaderboardFr };
