// /frame/card names its script and stylesheet in a Link header, so a browser asks for them with
// the page's first bytes; the names are the built page's own, read again after a rebuild.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { frameLinks } from "../../proxy/routes/widget";
import { startProxy, type ProxyHandle } from "../helpers/proxy";

/** The card frame page as Vite writes it: its module script and stylesheet in the head. */
const framePage = (script: string, style: string) => `<!doctype html>
<html lang="en">
  <head>
    <title>Card details</title>
    <script type="module" crossorigin src="/assets/${script}"></script>
    <link rel="stylesheet" crossorigin href="/assets/${style}">
  </head>
  <body><div id="card"></div></body>
</html>`;

let proxy: ProxyHandle | undefined;
afterEach(() => proxy?.close());

it("the frame page comes with a Link header preloading its script and stylesheet, as the page asks for them", async () => {
  const dir = mkdtempSync(join(tmpdir(), "givekit-frame-"));
  mkdirSync(join(dir, "frame"));
  const page = join(dir, "frame", "card.html");
  writeFileSync(page, framePage("card-Ab12Cd34.js", "card-Ef56Gh78.css"));
  proxy = await startProxy({
    upstreamUrl: "http://127.0.0.1:9",
    allowedOrigins: ["https://shelter.example"],
    env: { GIVEKIT_WIDGET_DIR: dir },
  });
  const first = await fetch(`${proxy.url}/frame/card`);
  expect(first.status).toBe(200);
  expect(first.headers.get("link")).toBe(
    "</assets/card-Ab12Cd34.js>; rel=modulepreload; crossorigin, </assets/card-Ef56Gh78.css>; rel=preload; as=style; crossorigin",
  );

  // A rebuild names new files: the header follows the page.
  writeFileSync(page, framePage("card-Zz99Yy88.js", "card-Xx77Ww66.css"));
  const rebuilt = await fetch(`${proxy.url}/frame/card`);
  expect(rebuilt.headers.get("link")).toContain("</assets/card-Zz99Yy88.js>; rel=modulepreload");
  expect(rebuilt.headers.get("link")).toContain("</assets/card-Xx77Ww66.css>; rel=preload; as=style");
});

it("a page naming nothing of /assets/ gets no Link header; other origins' files are never named", () => {
  expect(frameLinks("<!doctype html><title>card</title>")).toBe("");
  expect(frameLinks('<script src="https://cdn.example/x.js"></script><link href="/assets/../x.css">')).toBe(
    "",
  );
});
