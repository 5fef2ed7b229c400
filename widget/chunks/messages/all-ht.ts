/** What every element says in Haitian Creole: loaded by widget.js beside the `all` chunk. */
export { ht as messages } from "../../i18n/ht";
