/**
 * The script-tag build (widget.js): `<script src="https://PROXY/widget.js" async></script>`
 * defines both elements; the proxy it came from is their default `proxy`.
 */
import { defineElements } from "./elements";
import { rememberScriptOrigin } from "./shared/proxy-url";

rememberScriptOrigin((document.currentScript as HTMLScriptElement | null)?.src);
defineElements();
