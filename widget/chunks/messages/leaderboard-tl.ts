/** What <givekit-leaderboard> says in Tagalog: loaded by widget.js beside the leaderboard chunk. */
import type { Catalog } from "../../i18n";
import { leaderboardTl } from "../../i18n/tl";

export const messages: Catalog = { leaderboard: leaderboardTl };
