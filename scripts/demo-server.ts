/**
 * The demo campaign page's server: dist/demo/ as built, with the `__GIVEKIT_PROXY__`
 * placeholders of its HTML pages replaced by the proxy's URL, so the page is served from
 * another origin than the proxy, as a nonprofit's site would be.
 */
import { readFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import { serveStatic } from "@hono/node-server/serve-static";
import { Hono } from "hono";
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

/** Serves the demo page: its HTML with the proxy's URL filled in, every other file as it is. */
export function createDemoApp(options: Pick<DemoServerOptions, "dir" | "proxyUrl">): Hono {
  const root = resolve(options.dir);
  const app = new Hono();
  app.use((c, next) => {
    c.header("Cache-Control", "no-cache");
    return next();
  });
  app.get("*", async (c, next) => {
    const page = c.req.path.endsWith("/") ? `${c.req.path}index.html` : c.req.path;
    if (!page.endsWith(".html")) return next();
    const file = resolve(root, `.${page}`);
    if (!file.startsWith(root + sep)) return next();
    const html = await readFile(file, "utf8").catch(() => null);
    if (html === null) return next();
    return c.html(html.replaceAll(PROXY_PLACEHOLDER, options.proxyUrl()));
  });
  app.use(serveStatic({ root }));
  app.notFound((c) =>
    existsSync(join(root, "index.html")) ? c.text("Not found", 404) : c.html(NOT_BUILT_PAGE, 503),
  );
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
