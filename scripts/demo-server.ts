/**
 * The demo campaign page's server: dist/demo/ as built, with the `__GIVEKIT_PROXY__`
 * placeholders of its HTML pages replaced by the proxy's URL, so the page is served from
 * another origin than the proxy, as a nonprofit's site would be.
 */
import { existsSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import { Hono, type Context } from "hono";
import { getMimeType } from "hono/utils/mime";
import {
  compressedVariants,
  isSiblingName,
  precompressedFiles,
  variantResponse,
  type Variants,
} from "../http/precompressed";
import { closeServer, listen } from "../http/listen";

export const PROXY_PLACEHOLDER = "__GIVEKIT_PROXY__";

const NOT_BUILT_PAGE = `<!doctype html><meta charset="utf-8"><title>givekit: not built</title>
<h1>The demo page is not built yet</h1><p>Run <code>npm run build</code> (or <code>npm start</code>, which builds first) and reload.</p>`;

export interface DemoServerOptions {
  /** The built demo page, dist/demo. */
  dir: string;
  host: string;
  /** 0 for an ephemeral port. */
  port: number;
  /** The proxy's URL, asked for each page (the proxy may start after this server). */
  proxyUrl: () => string;
}

/** A file as the request accepts it; every demo file is revalidated (it may be rebuilt). */
const send = (c: Context, variants: Variants, contentType: string) =>
  variantResponse(
    { acceptEncoding: c.req.header("accept-encoding"), ifNoneMatch: c.req.header("if-none-match") },
    variants,
    { "Content-Type": contentType, "Cache-Control": "no-cache" },
  );

/**
 * Serves the demo page: its HTML with the proxy's URL filled in (compressed once per page and
 * URL), every other file as the build compressed it, as the proxy serves the widget
 * (http/precompressed.ts).
 */
export function createDemoApp(options: Pick<DemoServerOptions, "dir" | "proxyUrl">): Hono {
  const root = resolve(options.dir);
  const files = precompressedFiles();
  const pages = new Map<string, { source: Variants; proxyUrl: string; variants: Variants }>();
  const inRoot = (path: string) => {
    const file = resolve(root, `.${path}`);
    return file.startsWith(root + sep) && !isSiblingName(file) ? file : null;
  };

  const app = new Hono();
  app.get("*", async (c, next) => {
    const path = c.req.path.endsWith("/") ? `${c.req.path}index.html` : c.req.path;
    const file = inRoot(path);
    const source = file ? await files.get(file) : null;
    if (!file || !source) return next();
    if (!file.endsWith(".html")) {
      return send(c, source, getMimeType(file) ?? "application/octet-stream");
    }
    const proxyUrl = options.proxyUrl();
    let page = pages.get(file);
    if (page?.source !== source || page.proxyUrl !== proxyUrl) {
      const html = new TextDecoder().decode(source.identity.body).replaceAll(PROXY_PLACEHOLDER, proxyUrl);
      page = { source, proxyUrl, variants: compressedVariants(new TextEncoder().encode(html)) };
      pages.set(file, page);
    }
    return send(c, page.variants, "text/html; charset=utf-8");
  });
  app.notFound((c) => {
    c.header("Cache-Control", "no-cache");
    return existsSync(join(root, "index.html")) ? c.text("Not found", 404) : c.html(NOT_BUILT_PAGE, 503);
  });
  return app;
}

/**
 * @example
 * const demo = await startDemoServer({ dir: "dist/demo", host: "127.0.0.1", port: 8080, proxyUrl: () => proxy.url });
 * await demo.close();
 */
export async function startDemoServer(options: DemoServerOptions) {
  const { server, url, port } = await listen(createDemoApp(options).fetch, options.host, options.port);
  return { url, port, close: () => closeServer(server) };
}
