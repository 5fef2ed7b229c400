/** What <givekit-leaderboard> says in Simplified Chinese: loaded by widget.js beside the leaderboard chunk. */
import type { Catalog } from "../../i18n";
import { leaderboardZhHans } from "../../i18n/zh-Hans";

export const messages: Catalog = { leaderboard: leaderboardZhHans };
