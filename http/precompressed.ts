/**
 * Built files served as the build compressed them: a file and its `.br` and `.gz` siblings
 * (written by vite.config.ts), read once into memory, each with a strong ETag of its own bytes.
 * The request's Accept-Encoding picks one (http/encoding.ts); nothing is compressed per request.
 * A file is read again only when it changes on disk (a rebuild under a running server).
 */
import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { CODINGS, negotiateEncoding, SIBLING_SUFFIX, type Coding } from "./encoding";

/** One way to send a file: its bytes, and the coding they are in (null: as written). */
export interface Variant {
  body: Uint8Array<ArrayBuffer>;
  encoding: Coding | null;
  etag: string;
}

/** A file and its compressed siblings. */
export interface Variants {
  identity: Variant;
  encoded: Partial<Record<Coding, Variant>>;
}

/** What the build uses: the most Brotli and gzip can do, since they run once per file. */
export const BROTLI_QUALITY = 11;
export const GZIP_LEVEL = 9;

/** A name ending as a sibling does (`x.js.br`): never served by its own name. */
export function isSiblingName(path: string): boolean {
  return CODINGS.some((coding) => path.endsWith(SIBLING_SUFFIX[coding]));
}

function variant(body: Uint8Array<ArrayBuffer>, encoding: Coding | null): Variant {
  const hash = createHash("sha256").update(body).digest("base64url").slice(0, 22);
  return { body, encoding, etag: `"${hash}"` };
}

/** Brotli at quality 11, as the build writes it. */
export function brotli(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const body = brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
  return new Uint8Array(body);
}

export function gzip(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(gzipSync(bytes, { level: GZIP_LEVEL }));
}

/**
 * Variants of bytes made at run time (a page with a value filled in), compressed once here:
 * call it once per content, never per request. A coding that would not save a byte is left out.
 */
export function compressedVariants(bytes: Uint8Array<ArrayBuffer>): Variants {
  const encoded: Partial<Record<Coding, Variant>> = {};
  for (const [coding, body] of [
    ["br", brotli(bytes)],
    ["gzip", gzip(bytes)],
  ] as const) {
    if (body.length < bytes.length) encoded[coding] = variant(body, coding);
  }
  return { identity: variant(bytes, null), encoded };
}

/** A file and whichever siblings the build wrote beside it. */
async function load(path: string): Promise<Variants> {
  const identity = variant(new Uint8Array(await readFile(path)), null);
  const encoded: Partial<Record<Coding, Variant>> = {};
  for (const coding of CODINGS) {
    const body = await readFile(path + SIBLING_SUFFIX[coding]).catch(() => null);
    if (body) encoded[coding] = variant(new Uint8Array(body), coding);
  }
  return { identity, encoded };
}

/**
 * Built files with their siblings, each read on first use and kept.
 *
 * @example
 * const files = precompressedFiles();
 * const variants = await files.get("/srv/dist/widget/widget.js"); // null when there is no such file
 * if (variants) return variantResponse({ acceptEncoding: c.req.header("accept-encoding") }, variants, { "Cache-Control": "no-cache" });
 */
export function precompressedFiles() {
  const cache = new Map<string, { size: number; mtimeMs: number; variants: Variants }>();

  return {
    /** The file at `path` (absolute, already checked to be inside its folder) and its siblings, or null. */
    async get(path: string): Promise<Variants | null> {
      if (isSiblingName(path)) return null;
      const info = await stat(path).catch(() => null);
      if (!info?.isFile()) {
        cache.delete(path);
        return null;
      }
      const kept = cache.get(path);
      if (kept && kept.size === info.size && kept.mtimeMs === info.mtimeMs) return kept.variants;
      const variants = await load(path).catch(() => null);
      if (variants) cache.set(path, { size: info.size, mtimeMs: info.mtimeMs, variants });
      return variants;
    },
  };
}

/** The variant an Accept-Encoding header gets: the client's preferred coding that was built, else the file as it is. */
export function chooseVariant(variants: Variants, acceptEncoding: string | undefined | null): Variant {
  const available = CODINGS.filter((coding) => variants.encoded[coding]);
  const coding = negotiateEncoding(acceptEncoding, available);
  return (coding && variants.encoded[coding]) || variants.identity;
}

/** An entity tag without its weak mark: If-None-Match compares them so. */
const opaque = (tag: string) => tag.trim().replace(/^W\//, "");

/** Whether If-None-Match names this ETag (weak comparison, as RFC 9110 says for it), or is `*`. */
export function matchesIfNoneMatch(header: string | undefined | null, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((tag) => tag.trim() === "*" || opaque(tag) === etag);
}

/**
 * The answer for a file: the variant the request accepts, with Content-Encoding, Vary and its
 * ETag, or 304 when the client already has that very variant.
 */
export function variantResponse(
  request: { acceptEncoding?: string | null; ifNoneMatch?: string | null },
  variants: Variants,
  headers: Record<string, string>,
): Response {
  const chosen = chooseVariant(variants, request.acceptEncoding);
  const out = new Headers(headers);
  out.set("ETag", chosen.etag);
  out.set("Vary", "Accept-Encoding");
  if (matchesIfNoneMatch(request.ifNoneMatch, chosen.etag)) {
    out.delete("Content-Type");
    return new Response(null, { status: 304, headers: out });
  }
  if (chosen.encoding) out.set("Content-Encoding", chosen.encoding);
  out.set("Content-Length", String(chosen.body.length));
  return new Response(chosen.body, { status: 200, headers: out });
}
