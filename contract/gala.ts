/**
 * Gala night's plain values (no zod, so the widget's wall and leaderboard chunks import them
 * without the schemas): how much a wall or a leaderboard may ask for, and the name a donor who
 * gave anonymously is shown by.
 */

/** Most entries a wall (…/wall?limit=), and most peers a leaderboard (…/leaderboard?limit=), may ask for. */
export const WALL_LIMIT_MAX = 50;
export const LEADERBOARD_LIMIT_MAX = 50;

/** The leaderboard's two kinds, as `of=` names them. */
export const LEADERBOARD_KINDS = ["teams", "fundraisers"] as const;
export type LeaderboardKind = (typeof LEADERBOARD_KINDS)[number];

/** What the proxy sends as the name of a donor who asked not to be named; elements say it in their language. */
export const ANONYMOUS = "Anonymous";
