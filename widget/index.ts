/**
 * givekit for bundlers and `<script type="module">`: nothing is defined until you call
 * defineElements() or mount(). Loaded from the proxy, the proxy is the default `proxy`.
 */
import { rememberScriptOrigin } from "./shared/proxy-url";

rememberScriptOrigin(import.meta.url);

export { defineElements, mount, type MountOptions } from "./elements";
export type { GivekitEventMap } from "./shared/events";
