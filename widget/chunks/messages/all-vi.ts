/** What every element says in Vietnamese: loaded by widget.js beside the `all` chunk. */
export { vi as messages } from "../../i18n/vi";
