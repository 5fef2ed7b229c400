/** What <givekit-leaderboard> says in Russian: loaded by widget.js beside the leaderboard chunk. */
import type { Catalog } from "../../i18n";
import { leaderboardRu } from "../../i18n/ru";

export const messages: Catalog = { leaderboard: leaderboardRu };
