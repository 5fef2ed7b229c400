/** What every element says in Brazilian Portuguese: loaded by widget.js beside the `all` chunk. */
export { ptBR as messages } from "../../i18n/pt-BR";
