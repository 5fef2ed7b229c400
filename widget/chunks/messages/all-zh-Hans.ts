/** What every element says in Simplified Chinese: loaded by widget.js beside the `all` chunk. */
export { zhHans as messages } from "../../i18n/zh-Hans";
