/**
 * givekit for bundlers and `<script type="module">`: nothing is defined until you call
 * defineElements() or mount(). Loaded from the proxy, the proxy is the default `proxy`.
 */
import { useLocaleChooser, useMessageSource } from "./i18n";
import { bundledMessages } from "./i18n/bundled";
import { chooseLocale } from "./i18n/choose";
import { rememberScriptOrigin } from "./shared/proxy-url";

rememberScriptOrigin(import.meta.url);
useMessageSource(bundledMessages);
useLocaleChooser(chooseLocale);

export { defineElements, mount, type MountOptions } from "./elements";
export type { GivekitEventMap } from "./shared/events";
