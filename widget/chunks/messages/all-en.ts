/** What every element says in English: loaded by widget.js beside the `all` chunk. */
export { en as messages } from "../../i18n/en";
