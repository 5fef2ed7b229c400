/**
 * The dom tests render components straight away, as an element does once its language's
 * messages have loaded (givekit.js's source: every section of both languages).
 */
import { loadMessages, useMessageSource } from "../../widget/i18n";
import { bundledMessages } from "../../widget/i18n/bundled";

useMessageSource(bundledMessages);
await Promise.all([loadMessages("en"), loadMessages("es")]);
