/** What every element says in Korean: loaded by widget.js beside the `all` chunk. */
export { ko as messages } from "../../i18n/ko";
