import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  brotli,
  compressedVariants,
  gzip,
  isSiblingName,
  matchesIfNoneMatch,
  precompressedFiles,
  variantResponse,
} from "./precompressed";

const TEXT = new TextEncoder().encode("export const words = 'give, give, give';\n".repeat(40));

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), "givekit-precompressed-"));
  writeFileSync(join(dir, "a.js"), TEXT);
  writeFileSync(join(dir, "a.js.br"), brotli(TEXT));
  writeFileSync(join(dir, "a.js.gz"), gzip(TEXT));
  writeFileSync(join(dir, "plain.js"), "1");
  return dir;
}

describe("precompressedFiles", () => {
  it("reads a file with its siblings, each with its own strong ETag", async () => {
    const dir = folder();
    const variants = (await precompressedFiles().get(join(dir, "a.js")))!;
    expect(Buffer.from(variants.identity.body).equals(Buffer.from(TEXT))).toBe(true);
    expect(brotliDecompressSync(variants.encoded.br!.body).equals(Buffer.from(TEXT))).toBe(true);
    expect(gunzipSync(variants.encoded.gzip!.body).equals(Buffer.from(TEXT))).toBe(true);
    const etags = [variants.identity.etag, variants.encoded.br!.etag, variants.encoded.gzip!.etag];
    expect(new Set(etags).size).toBe(3);
    for (const etag of etags) expect(etag).toMatch(/^"[\w-]+"$/);
  });

  it("a file without siblings goes as it is; a sibling or a missing file is nothing", async () => {
    const dir = folder();
    const files = precompressedFiles();
    const plain = (await files.get(join(dir, "plain.js")))!;
    expect(plain.encoded).toEqual({});
    expect(await files.get(join(dir, "a.js.br"))).toBeNull();
    expect(await files.get(join(dir, "a.js.gz"))).toBeNull();
    expect(await files.get(join(dir, "none.js"))).toBeNull();
    expect(await files.get(dir)).toBeNull();
  });

  it("keeps what it read, and reads a file again when it changes", async () => {
    const dir = folder();
    const files = precompressedFiles();
    const first = await files.get(join(dir, "plain.js"));
    expect(await files.get(join(dir, "plain.js"))).toBe(first);
    writeFileSync(join(dir, "plain.js"), "22");
    const second = (await files.get(join(dir, "plain.js")))!;
    expect(new TextDecoder().decode(second.identity.body)).toBe("22");
  });
});

describe("variantResponse", () => {
  const variants = compressedVariants(TEXT);
  const headers = { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "no-cache" };

  it.each([
    ["gzip, deflate, br, zstd", "br"],
    ["gzip", "gzip"],
    ["br;q=0, gzip;q=1", "gzip"],
    [undefined, null],
    ["identity;q=0", null],
  ] as const)(
    "Accept-Encoding %j → Content-Encoding %s, Vary and the ETag of those bytes",
    async (accept, coding) => {
      const res = variantResponse({ acceptEncoding: accept }, variants, headers);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-encoding")).toBe(coding);
      expect(res.headers.get("vary")).toBe("Accept-Encoding");
      expect(res.headers.get("cache-control")).toBe("no-cache");
      const chosen = coding ? variants.encoded[coding]! : variants.identity;
      expect(res.headers.get("etag")).toBe(chosen.etag);
      const body = Buffer.from(await res.arrayBuffer());
      expect(res.headers.get("content-length")).toBe(String(body.length));
      expect(body.equals(Buffer.from(chosen.body))).toBe(true);
    },
  );

  it("304 for the variant the client has; the same ETag under another coding is not a match", () => {
    const br = variants.encoded.br!.etag;
    const hit = variantResponse({ acceptEncoding: "br", ifNoneMatch: br }, variants, headers);
    expect(hit.status).toBe(304);
    expect(hit.headers.get("etag")).toBe(br);
    expect(hit.headers.get("vary")).toBe("Accept-Encoding");
    expect(variantResponse({ acceptEncoding: "gzip", ifNoneMatch: br }, variants, headers).status).toBe(200);
  });

  it("If-None-Match: lists, weak forms and * match; nothing else does", () => {
    expect(matchesIfNoneMatch('"a", "b"', '"b"')).toBe(true);
    expect(matchesIfNoneMatch('W/"b"', '"b"')).toBe(true);
    expect(matchesIfNoneMatch("*", '"b"')).toBe(true);
    expect(matchesIfNoneMatch('"bb"', '"b"')).toBe(false);
    expect(matchesIfNoneMatch("", '"b"')).toBe(false);
    expect(matchesIfNoneMatch(undefined, '"b"')).toBe(false);
  });

  it("a coding that would not save a byte is not made", () => {
    expect(compressedVariants(new TextEncoder().encode("1")).encoded).toEqual({});
  });

  it("siblings are known by their endings", () => {
    expect(isSiblingName("/w/widget.js.br")).toBe(true);
    expect(isSiblingName("assets/x.js.gz")).toBe(true);
    expect(isSiblingName("widget.js")).toBe(false);
  });
});
