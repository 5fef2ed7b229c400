/** What every element says in Russian: loaded by widget.js beside the `all` chunk. */
export { ru as messages } from "../../i18n/ru";
