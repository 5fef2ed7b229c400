/** The code of `<givekit-leaderboard>`, loaded by widget.js when the first one appears on a page. */
import { defineLeaderboardElement } from "../leaderboard/element";
import { definer } from "./when-ready";

export const define = definer(import.meta.url, ["givekit-leaderboard"], defineLeaderboardElement);
