/**
 * The script-tag build (widget.js): `<script src="https://PROXY/widget.js" async></script>`.
 * A small loader: each element's code, and each language's messages, load when the page first
 * uses them (widget/loader.ts); the chunks come from the proxy that served this script.
 * A page that runs it twice (the snippet pasted in a template and again by a plugin) gets one
 * loader: the first; a second would ask for each form's campaign again.
 */
import chunks from "virtual:givekit/element-chunks";
import { watchForElements } from "./loader";
import { reserveRoom } from "./shared/room";

const page = document as Document & { givekit?: true };

if (!page.givekit) {
  page.givekit = true;
  reserveRoom();
  watchForElements(chunks, (document.currentScript as HTMLScriptElement | null)?.src ?? location.href);
}
