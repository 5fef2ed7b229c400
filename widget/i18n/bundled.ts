import { en } from "./en";
import { es } from "./es";
import type { MessageSource } from ".";

/** Every section of every language, inside the bundle: givekit.js's source, and the tests'. */
export const bundledMessages: MessageSource = (locale) => Promise.resolve(locale === "es" ? es : en);
