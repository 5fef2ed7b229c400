/** What every element says in Arabic: loaded by widget.js beside the `all` chunk. */
export { ar as messages } from "../../i18n/ar";
