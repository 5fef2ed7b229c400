// The demo page's server sends its files as the proxy sends the widget's: compressed by the build.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { brotli, gzip } from "../http/precompressed";
import { createDemoApp, PROXY_PLACEHOLDER } from "./demo-server";

const PAGE = `<!doctype html><script src="${PROXY_PLACEHOLDER}/widget.js" async></script>${"<p>Give.</p>\n".repeat(50)}`;
const SCRIPT = "document.title = 'Hope Shelter';\n".repeat(50);

function built(): string {
  const dir = mkdtempSync(join(tmpdir(), "givekit-demo-"));
  mkdirSync(join(dir, "assets"));
  writeFileSync(join(dir, "index.html"), PAGE);
  writeFileSync(join(dir, "assets", "index-Ab12.js"), SCRIPT);
  writeFileSync(join(dir, "assets", "index-Ab12.js.br"), brotli(new TextEncoder().encode(SCRIPT)));
  writeFileSync(join(dir, "assets", "index-Ab12.js.gz"), gzip(new TextEncoder().encode(SCRIPT)));
  return dir;
}

const app = (proxyUrl = "http://127.0.0.1:8787") => createDemoApp({ dir: built(), proxyUrl: () => proxyUrl });
const get = (demo: ReturnType<typeof app>, path: string, headers: Record<string, string> = {}) =>
  demo.request(path, { headers });

describe("the demo page's server", () => {
  it.each([
    ["br", (body: Buffer) => brotliDecompressSync(body)],
    ["gzip", (body: Buffer) => gunzipSync(body)],
  ] as const)("the page, with the proxy's URL in it, and its script, in %s", async (coding, decode) => {
    const demo = app();
    const page = await get(demo, "/", { "Accept-Encoding": coding });
    expect(page.headers.get("content-encoding")).toBe(coding);
    expect(page.headers.get("vary")).toBe("Accept-Encoding");
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = decode(Buffer.from(await page.arrayBuffer())).toString("utf8");
    expect(html).toBe(PAGE.replace(PROXY_PLACEHOLDER, "http://127.0.0.1:8787"));

    const script = await get(demo, "/assets/index-Ab12.js", { "Accept-Encoding": coding });
    expect(script.headers.get("content-encoding")).toBe(coding);
    expect(decode(Buffer.from(await script.arrayBuffer())).toString("utf8")).toBe(SCRIPT);
    const again = await get(demo, "/assets/index-Ab12.js", {
      "Accept-Encoding": coding,
      "If-None-Match": script.headers.get("etag")!,
    });
    expect(again.status).toBe(304);
  });

  it("plain when nothing compressed is accepted", async () => {
    const res = await get(app(), "/assets/index-Ab12.js", { "Accept-Encoding": "identity;q=0" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-encoding")).toBeNull();
    expect(await res.text()).toBe(SCRIPT);
  });

  it.each(["/assets/index-Ab12.js.br", "/assets/index-Ab12.js.gz", "/..%2F..%2Fetc%2Fpasswd", "/nope.js"])(
    "%s → 404",
    async (path) => {
      expect((await get(app(), path, { "Accept-Encoding": "br" })).status).toBe(404);
    },
  );
});
