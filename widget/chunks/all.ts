/** Every element's code in one chunk, for a page that shows more than one kind at first. */
import { defineElements } from "../elements";
import { definer } from "./when-ready";

export const define = definer(
  import.meta.url,
  [
    "givekit-donate",
    "givekit-optin",
    "givekit-goal",
    "givekit-button",
    "givekit-wall",
    "givekit-leaderboard",
  ],
  defineElements,
);
