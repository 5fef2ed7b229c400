/** What every element says in Traditional Chinese: loaded by widget.js beside the `all` chunk. */
export { zhHant as messages } from "../../i18n/zh-Hant";
