/** What <givekit-leaderboard> says in Korean: loaded by widget.js beside the leaderboard chunk. */
import type { Catalog } from "../../i18n";
import { leaderboardKo } from "../../i18n/ko";

export const messages: Catalog = { leaderboard: leaderboardKo };
