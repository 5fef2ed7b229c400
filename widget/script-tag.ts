/**
 * The script-tag build (widget.js): `<script src="https://PROXY/widget.js" async></script>`.
 * A small loader: each element's code, and each language's messages, load when the page first
 * uses them (widget/loader.ts); the chunks come from the proxy that served this script.
 */
import chunks from "virtual:givekit/element-chunks";
import { watchForElements } from "./loader";
import { reserveRoom } from "./shared/room";

reserveRoom();
watchForElements(chunks, (document.currentScript as HTMLScriptElement | null)?.src ?? location.href);
