/**
 * The built widget, served by the proxy so its script's origin is the proxy:
 * GET /widget.js (script tag), /givekit.js (ES module), /frame/card (the card frame page,
 * which only ALLOWED_ORIGINS may frame) and /assets/* (hashed, cached for a year), each as the
 * build compressed it (Brotli, gzip or plain, by Accept-Encoding: http/precompressed.ts).
 * A missing build is a clear 404 problem, never a crash.
 */
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { Hono, type Context } from "hono";
import { getMimeType } from "hono/utils/mime";
import { isSiblingName, precompressedFiles, variantResponse } from "../../http/precompressed";
import type { AppEnv } from "../context";
import { ProblemError } from "../problem";

/** Entry scripts keep their names across releases: revalidated each time (a 304 when unchanged). */
const ENTRY_CACHE = "no-cache";
/** Hashed asset names change with their content. */
// No "public": nothing under /assets/ is asked for with credentials, so any cache may keep it already.
const ASSET_CACHE = "max-age=31536000, immutable";
const FRAME_CACHE = "no-cache";
/** The card frame page's own script and stylesheet, as its built HTML names them. */
const FRAME_ASSET = /<(script|link)\b[^>]*?\b(?:src|href)="(\/assets\/[\w.-]+\.(?:js|css))"/g;

/**
 * A `Link` header preloading what the frame page loads (its module script, its stylesheet, each
 * as the page asks for it: `crossorigin`), so the browser asks for them with the page's first
 * bytes rather than once it has read them.
 *
 * @example
 * frameLinks('<script type="module" crossorigin src="/assets/card-1.js"></script>');
 * // '</assets/card-1.js>; rel=modulepreload; crossorigin'
 */
export function frameLinks(html: string): string {
  return [...html.matchAll(FRAME_ASSET)]
    .map(([, tag, path]) =>
      tag === "script"
        ? `<${path}>; rel=modulepreload; crossorigin`
        : `<${path}>; rel=preload; as=style; crossorigin`,
    )
    .join(", ");
}
const ASSET_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
/** The ES module chunks under /assets/ (the loader and givekit.js are the other scripts). */
const MODULE_CHUNK = /[/\\]assets[/\\][^/\\]+\.js$/;

/**
 * A file's Content-Type. A module script is always read as UTF-8 (HTML's module script fetch),
 * so the chunks under /assets/ go without a charset; widget.js, a classic script a page of any
 * encoding loads, and givekit.js keep theirs.
 */
function contentType(path: string): string {
  return MODULE_CHUNK.test(path) ? "text/javascript" : (getMimeType(path) ?? "application/octet-stream");
}
/** Scripts and stylesheets, which no browser reads a document's headers from. */
const SUBRESOURCE_NAME = /\.(?:js|css)$/;

/**
 * The card frame's policy: its own scripts only, framed only by the allowed origins. With a
 * challenge configured, its script's origin may run a script and a frame (Turnstile draws its
 * widget in an iframe of its own), and nothing more: the frame loads that script only in
 * defence mode, when the proxy asks for a proof.
 */
export function frameContentSecurityPolicy(
  allowedOrigins: readonly string[],
  challengeScriptUrl: string | null = null,
): string {
  const ancestors = allowedOrigins.length > 0 ? allowedOrigins.join(" ") : "'none'";
  const challenge = challengeScriptUrl ? ` ${new URL(challengeScriptUrl).origin}` : "";
  // Scripts and connections fall back to default-src 'self': named only where they differ.
  return [
    "default-src 'self'",
    ...(challenge ? [`script-src 'self'${challenge}`, `frame-src${challenge}`] : []),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "form-action 'none'",
    "base-uri 'none'",
    "object-src 'none'",
    `frame-ancestors ${ancestors}`,
  ].join("; ");
}

export function widgetRoutes(options: {
  widgetDir: string;
  allowedOrigins: readonly string[];
  /** The challenge script's URL when Turnstile is configured (TURNSTILE_SCRIPT_URL), else null. */
  challengeScriptUrl?: string | null;
}) {
  const frameCsp = frameContentSecurityPolicy(options.allowedOrigins, options.challengeScriptUrl ?? null);

  const files = precompressedFiles();
  /** The frame page's Link header, by the page's ETag (made again after a rebuild). */
  let frameLink: { etag: string; value: string } | null = null;

  async function serve(
    c: Context<AppEnv>,
    relativePath: string,
    headers: Record<string, string>,
  ): Promise<Response> {
    const path = join(options.widgetDir, relativePath);
    const variants = await files.get(path);
    if (!variants) {
      const built = await stat(options.widgetDir).then(
        (dir) => dir.isDirectory(),
        () => false,
      );
      throw new ProblemError(
        "not_found",
        built ? "No such widget file." : "The widget is not built yet: run `npm run build`.",
      );
    }
    return variantResponse(
      { acceptEncoding: c.req.header("accept-encoding"), ifNoneMatch: c.req.header("if-none-match") },
      variants,
      { "Content-Type": contentType(path), ...headers },
    );
  }

  // Scripts are loaded by other sites' pages (a module script cross-origin needs CORS).
  const script = {
    "Cache-Control": ENTRY_CACHE,
    "Access-Control-Allow-Origin": "*",
    "Cross-Origin-Resource-Policy": "cross-origin",
  };
  // What widget.js and the card frame load from /assets/ is loaded in CORS mode (import(), and
  // `crossorigin` on the frame's script): Access-Control-Allow-Origin lets any page use it, and a
  // browser checks Cross-Origin-Resource-Policy only for no-cors loads, so none is sent
  // (`loadedWithCors`).
  const asset = {
    "Cache-Control": ASSET_CACHE,
    "Access-Control-Allow-Origin": "*",
  };

  return new Hono<AppEnv>()
    .get("/widget.js", (c) => {
      c.set("subresource", true);
      return serve(c, "widget.js", script);
    })
    .get("/givekit.js", (c) => {
      c.set("subresource", true);
      return serve(c, "givekit.js", script);
    })
    .get("/frame/card", async (c) => {
      c.set("framable", true);
      const page = await files.get(join(options.widgetDir, "frame/card.html"));
      if (page && frameLink?.etag !== page.identity.etag)
        frameLink = {
          etag: page.identity.etag,
          value: frameLinks(new TextDecoder().decode(page.identity.body)),
        };
      return serve(c, "frame/card.html", {
        "Cache-Control": FRAME_CACHE,
        "Content-Security-Policy": frameCsp,
        ...(page && frameLink?.value && { Link: frameLink.value }),
      });
    })
    .get("/assets/:name{.+}", async (c) => {
      const name = c.req.param("name");
      const parts = name.split("/");
      // A compressed sibling is sent for its file, by Accept-Encoding, never by its own name.
      if (!parts.every((part) => ASSET_NAME.test(part)) || isSiblingName(name))
        throw new ProblemError("not_found", "No such widget file.");
      if (SUBRESOURCE_NAME.test(name)) {
        c.set("subresource", true);
        c.set("loadedWithCors", true);
      }
      const res = await serve(c, join("assets", ...parts), asset);
      // A hashed name is its content's: never revalidated within its year, so no ETag to send.
      if (res.status === 200) res.headers.delete("ETag");
      return res;
    });
}
