/** What every element says in Spanish: loaded by widget.js beside the `all` chunk. */
export { es as messages } from "../../i18n/es";
