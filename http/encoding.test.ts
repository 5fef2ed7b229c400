import { describe, expect, it } from "vitest";
import { negotiateEncoding, parseAcceptEncoding } from "./encoding";

describe("negotiateEncoding: which coding a request's Accept-Encoding gets", () => {
  it.each([
    // What browsers send.
    ["gzip, deflate, br, zstd", "br"],
    ["gzip, deflate, br", "br"],
    ["gzip, deflate", "gzip"],
    ["br", "br"],
    ["gzip", "gzip"],
    // q-values: the client's preference first, the server's order between equals.
    ["br;q=0, gzip;q=1", "gzip"],
    ["br;q=0.5, gzip;q=0.8", "gzip"],
    ["br;q=0.8, gzip;q=0.8", "br"],
    ["gzip;q=1.0, br;q=0.999", "gzip"],
    ["br;q=0.001", "br"],
    ["br; q=0.5 , gzip ;q=0.4", "br"],
    // Wildcards stand for every coding not named.
    ["*", "br"],
    ["*;q=0.5, br;q=0", "gzip"],
    ["gzip, *;q=0", "gzip"],
    ["*;q=0", null],
    // Case does not matter.
    ["BR", "br"],
    ["GZip;Q=0.5", "gzip"],
    // Unknown codings are ignored.
    ["zstd, deflate", null],
    ["compress, x-gzip, sdch", null],
    ["zstd, gzip;q=0.1", "gzip"],
    // identity.
    ["identity", null],
    ["identity;q=0", null],
    ["identity;q=0, gzip", "gzip"],
    ["identity, br;q=0.5", null],
    ["identity;q=0.5, br", "br"],
    // Nothing, or nothing readable: the plain bytes.
    ["", null],
    [" , ;;, ", null],
    ["br;q=2", null],
    ["br;q=-1, gzip", "gzip"],
    ["br;q=abc, gzip;q=0.3", "gzip"],
    ["br;q=0.1234", null],
    ["b r, g\u00fczip", null],
  ] as const)("%j → %s", (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected);
  });

  it("no header at all: the plain bytes", () => {
    expect(negotiateEncoding(undefined)).toBeNull();
    expect(negotiateEncoding(null)).toBeNull();
  });

  it("only among the codings built for the file", () => {
    expect(negotiateEncoding("gzip, br", ["gzip"])).toBe("gzip");
    expect(negotiateEncoding("br", ["gzip"])).toBeNull();
    expect(negotiateEncoding("*", [])).toBeNull();
  });

  it("a huge header (8 KB and more) is read, not refused", () => {
    const junk = Array.from({ length: 800 }, (_, i) => `x-coding-${i};q=0.5`).join(", ");
    expect(junk.length).toBeGreaterThan(8 * 1024);
    expect(negotiateEncoding(`${junk}, gzip`)).toBe("gzip");
    expect(negotiateEncoding(`${junk}, br;q=0`)).toBeNull();
    expect(negotiateEncoding(";".repeat(100_000))).toBeNull();
    expect(negotiateEncoding("q=".repeat(50_000))).toBeNull();
  });

  it("the first mention of a coding wins", () => {
    expect(parseAcceptEncoding("br;q=0, br;q=1").get("br")).toBe(0);
  });
});
