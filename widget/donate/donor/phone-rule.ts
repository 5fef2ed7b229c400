/** The phone rule (contract/phone.ts), for the request check of a form that asks a phone. */
export { normalizeMobile } from "../../../contract/phone";
