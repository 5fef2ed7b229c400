/**
 * Answers widget.js asked for before a chunk had arrived (the campaign of each
 * `<givekit-donate>` it saw), handed to the chunk by `define(messages, need, early)`: the chunk's
 * own request for the same URL takes the answer over instead of asking again. Each is taken
 * once; one that failed is asked again by the normal path (widget/shared/api-client.ts).
 */
export type EarlyAnswers = (url: string) => Promise<Response> | undefined;

let take: EarlyAnswers = () => undefined;

/** The chunk's side: where widget.js keeps its early answers (none under givekit.js). */
export function useEarlyAnswers(given: EarlyAnswers | undefined): void {
  if (given) take = given;
}

/** The early answer for `url`, once; undefined when widget.js did not ask for it. */
export const takeEarly = (url: string): Promise<Response> | undefined => take(url);
