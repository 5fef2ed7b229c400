/**
 * The dom tests render components straight away, as an element does once its language's
 * messages have loaded (widget/i18n: each language is a chunk of its own in the build).
 */
import { loadMessages } from "../../widget/i18n";

await Promise.all([loadMessages("en"), loadMessages("es")]);
