/** What <givekit-leaderboard> says in Traditional Chinese: loaded by widget.js beside the leaderboard chunk. */
import type { Catalog } from "../../i18n";
import { leaderboardZhHant } from "../../i18n/zh-Hant";

export const messages: Catalog = { leaderboard: leaderboardZhHant };
