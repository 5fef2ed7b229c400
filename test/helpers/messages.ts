/**
 * The dom tests render components straight away, as an element does once its language's
 * messages have loaded (givekit.js's source: every section of every language), each element choosing its language as givekit.js's do.
 */
import { loadMessages, useLocaleChooser, useMessageSource } from "../../widget/i18n";
import { bundledMessages } from "../../widget/i18n/bundled";
import { chooseLocale } from "../../widget/i18n/choose";

useMessageSource(bundledMessages);
useLocaleChooser(chooseLocale);
await Promise.all([loadMessages("en"), loadMessages("es")]);
