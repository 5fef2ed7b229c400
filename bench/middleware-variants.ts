/**
 * One small Hono app per way of doing a piece of the proxy's plumbing that is still its own:
 * the proxy's middleware, or Hono's stock one configured to do the same. `npm run bench:middleware`
 * serves each in a process of its own and compares their CPU per request.
 *
 * Run as a program (`tsx bench/middleware-variants.ts NAME`), it serves variant NAME on
 * 127.0.0.1 and prints "listening on <url>".
 */
import { fileURLToPath } from "node:url";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { etag } from "hono/etag";
import { serveStatic } from "@hono/node-server/serve-static";
import { listen } from "../http/listen";
import type { AppEnv } from "../proxy/context";
import { BODY_LIMIT_BYTES, jsonBody, parseStrictJson } from "../proxy/middleware/json-body";
import { ProblemError } from "../proxy/problem";
import { widgetRoutes } from "../proxy/routes/widget";

const WIDGET_DIR = fileURLToPath(new URL("../dist/widget", import.meta.url));

export const VARIANTS = {
  /** A JSON body read from the Node stream with a limit (http/body.ts). */
  "body, the proxy's": () =>
    new Hono<AppEnv>().post("/", jsonBody(), (c) => c.json({ received: c.get("body") !== undefined })),
  /** The same through hono/body-limit and the Request's text. */
  "body, stock": () =>
    new Hono()
      .use(
        bodyLimit({
          maxSize: BODY_LIMIT_BYTES,
          onError: () => {
            throw new ProblemError("payload_too_large");
          },
        }),
      )
      .post("/", async (c) => c.json({ received: parseStrictJson(await c.req.text()) !== undefined })),
  /** widget.js with a stat-based ETag (proxy/routes/widget.ts). */
  "static, the proxy's": () =>
    new Hono<AppEnv>().route("/", widgetRoutes({ widgetDir: WIDGET_DIR, allowedOrigins: [] })),
  /** widget.js through @hono/node-server's serve-static, with hono/etag for the 304s. */
  "static, stock": () => new Hono().use(etag()).use(serveStatic({ root: WIDGET_DIR })),
} as const;

export type VariantName = keyof typeof VARIANTS;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const name = process.argv[2] as VariantName;
  const app = VARIANTS[name]?.();
  if (!app) throw new Error(`no variant "${name}"`);
  const { url } = await listen(app.fetch, "127.0.0.1", 0);
  process.stdout.write(`listening on ${url}\n`);
}
