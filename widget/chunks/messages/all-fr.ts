/** What every element says in French: loaded by widget.js beside the `all` chunk. */
export { fr as messages } from "../../i18n/fr";
