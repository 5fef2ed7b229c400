/** What <givekit-leaderboard> says in Vietnamese: loaded by widget.js beside the leaderboard chunk. */
import type { Catalog } from "../../i18n";
import { leaderboardVi } from "../../i18n/vi";

export const messages: Catalog = { leaderboard: leaderboardVi };
