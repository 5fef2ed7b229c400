/** What every element says in Tagalog: loaded by widget.js beside the `all` chunk. */
export { tl as messages } from "../../i18n/tl";
