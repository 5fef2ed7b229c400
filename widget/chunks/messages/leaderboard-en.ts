/** What <givekit-leaderboard> says in English: loaded by widget.js beside the leaderboard chunk. */
import type { Catalog } from "../../i18n";
import { leaderboardEn } from "../../i18n/en";

export const messages: Catalog = { leaderboard: leaderboardEn };
