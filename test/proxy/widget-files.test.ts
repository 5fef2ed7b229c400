// The built widget served by the proxy: scripts for any site, the card frame only for allowed origins.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { brotli, gzip } from "../../http/precompressed";
import { startProxy, type ProxyHandle } from "../helpers/proxy";

const ALLOWED = "https://shelter.example";

function builtWidget(): string {
  const dir = mkdtempSync(join(tmpdir(), "givekit-widget-"));
  mkdirSync(join(dir, "frame"));
  mkdirSync(join(dir, "assets"));
  writeFileSync(join(dir, "widget.js"), "/* iife */");
  writeFileSync(join(dir, "givekit.js"), "export function mount() {}");
  writeFileSync(join(dir, "frame", "card.html"), "<!doctype html><title>card</title>");
  writeFileSync(join(dir, "assets", "card-Ab12.js"), "console.log(1)");
  writeFileSync(join(dir, "secret.txt"), "not for the web");
  return dir;
}

let proxy: ProxyHandle;
afterEach(() => proxy.close());

async function start(widgetDir: string, env: Record<string, string> = {}) {
  // No upstream is needed to serve files.
  proxy = await startProxy({
    upstreamUrl: "http://127.0.0.1:9",
    allowedOrigins: [ALLOWED],
    env: { GIVEKIT_WIDGET_DIR: widgetDir, ...env },
  });
}

describe("the widget's files", () => {
  it("/widget.js and /givekit.js: JavaScript any site may load, revalidated each time", async () => {
    await start(builtWidget());
    for (const [path, text] of [
      ["/widget.js", "/* iife */"],
      ["/givekit.js", "export function mount() {}"],
    ]) {
      const res = await fetch(proxy.url + path, { headers: { Origin: "https://any.example" } });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(text);
      expect(res.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(res.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
      expect(res.headers.get("cache-control")).toBe("no-cache");
    }
  });

  it("/frame/card: HTML that only the allowed origins may frame", async () => {
    await start(builtWidget());
    const res = await fetch(`${proxy.url}/frame/card`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const policy = res.headers.get("content-security-policy") ?? "";
    expect(policy).toContain(`frame-ancestors ${ALLOWED}`);
    // Its own scripts and connections only: default-src 'self', which neither overrides.
    const directives = new Map(policy.split("; ").map((d) => [d.split(" ")[0], d.slice(d.indexOf(" ") + 1)]));
    expect(directives.get("default-src")).toBe("'self'");
    expect(directives.has("script-src")).toBe(false);
    expect(directives.has("connect-src")).toBe(false);
    expect(policy).not.toContain("frame-src");
    expect(res.headers.get("x-frame-options")).toBeNull();
  });

  it("/frame/card with Turnstile configured: the challenge script's origin may run a script and a frame, nothing more", async () => {
    await start(builtWidget(), {
      TURNSTILE_SITE_KEY: "1x-site",
      TURNSTILE_SECRET: "1x-secret",
      TURNSTILE_SCRIPT_URL: "https://challenges.example/turnstile/v0/api.js?render=explicit",
    });
    const policy = (await fetch(`${proxy.url}/frame/card`)).headers.get("content-security-policy") ?? "";
    const directives = new Map(
      policy.split(";").map((directive) => {
        const [name, ...values] = directive.trim().split(/\s+/);
        return [name, values.join(" ")] as const;
      }),
    );
    expect(directives.get("script-src")).toBe("'self' https://challenges.example");
    expect(directives.get("frame-src")).toBe("https://challenges.example");
    expect(directives.has("connect-src")).toBe(false);
    expect(directives.get("default-src")).toBe("'self'");
  });

  it("/assets/*: hashed files cached for a year, without an ETag (never revalidated: a new file is a new name)", async () => {
    await start(builtWidget());
    const res = await fetch(`${proxy.url}/assets/card-Ab12.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("max-age=31536000, immutable");
    expect(res.headers.get("etag")).toBeNull();
    // Loaded as modules, in CORS mode, by any page: CORS says so; a module is read as UTF-8 always.
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("content-type")).toBe("text/javascript");
  });

  it("a script sent carries only the headers a browser reads from a script; an error about one names its request", async () => {
    await start(builtWidget());
    for (const path of ["/widget.js", "/assets/card-Ab12.js"]) {
      const res = await fetch(proxy.url + path);
      expect(res.status, path).toBe(200);
      for (const header of ["x-request-id", "content-security-policy", "referrer-policy", "x-frame-options"])
        expect(res.headers.get(header), `${path} ${header}`).toBeNull();
      expect(res.headers.get("x-content-type-options"), path).toBe("nosniff");
    }
    // No-cors loads (the script tag's widget.js) need CORP; the module chunks, loaded with CORS, do not.
    expect((await fetch(`${proxy.url}/widget.js`)).headers.get("cross-origin-resource-policy")).toBe(
      "cross-origin",
    );
    expect(
      (await fetch(`${proxy.url}/assets/card-Ab12.js`)).headers.get("cross-origin-resource-policy"),
    ).toBeNull();
    const missing = await fetch(`${proxy.url}/assets/nope-Ab12.js`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get("x-request-id")).toMatch(/^[\w-]+$/);
  });

  it.each([
    "/assets/..%2Fsecret.txt",
    "/assets/../secret.txt",
    "/assets/.hidden",
    "/secret.txt",
    "/assets/nope.js",
  ])("%s → 404, nothing outside the widget is served", async (path) => {
    await start(builtWidget());
    const res = await fetch(proxy.url + path);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain("not for the web");
  });

  it("without a build: a clear 404 problem telling to build, and the proxy keeps running", async () => {
    await start(join(tmpdir(), "givekit-no-such-build"));
    const res = await fetch(`${proxy.url}/widget.js`);
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    const problem = await res.json();
    expect(problem.code).toBe("not_found");
    expect(problem.detail).toContain("npm run build");
    expect((await fetch(`${proxy.url}/v1/health`)).status).toBe(200);
  });
});

/** Text long enough to compress, as a build's files are. */
const long = (line: string) => line.repeat(60);

/** Each kind of file the proxy serves, as a build writes it: the file, its .br and its .gz. */
const KINDS = {
  "the loader": { path: "/widget.js", file: "widget.js", text: long("/* loader */ load('donate');\n") },
  "the ES module": { path: "/givekit.js", file: "givekit.js", text: long("export function mount() {}\n") },
  "an element's chunk": {
    path: "/assets/donate-Ab12Cd34.js",
    file: "assets/donate-Ab12Cd34.js",
    text: long("export function define() { return 'donate'; }\n"),
  },
  "a message catalog": {
    path: "/assets/donate-en-Ef56Gh78.js",
    file: "assets/donate-en-Ef56Gh78.js",
    text: long('export default { donate: "Donate", amount: "Amount" };\n'),
  },
  "the card frame's stylesheet": {
    path: "/assets/card-Ij90Kl12.css",
    file: "assets/card-Ij90Kl12.css",
    text: long(".card { border: 1px solid; }\n"),
  },
  "the card frame page": {
    path: "/frame/card",
    file: "frame/card.html",
    text: `<!doctype html><title>card</title>${long("<div></div>\n")}`,
  },
} as const;

function compressedWidget(): string {
  const dir = builtWidget();
  for (const { file, text } of Object.values(KINDS)) {
    const bytes = new TextEncoder().encode(text);
    writeFileSync(join(dir, file), bytes);
    writeFileSync(join(dir, `${file}.br`), brotli(bytes));
    writeFileSync(join(dir, `${file}.gz`), gzip(bytes));
  }
  return dir;
}

interface RawReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A GET whose body comes back as sent (fetch would decode it). */
function rawGet(url: string, headers: Record<string, string> = {}): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

const cache = async (path: string) => (await rawGet(proxy.url + path)).headers["cache-control"];

const DECODE = {
  br: (body: Buffer) => brotliDecompressSync(body),
  gzip: (body: Buffer) => gunzipSync(body),
  identity: (body: Buffer) => body,
};

describe("the widget's files, compressed as the build wrote them", () => {
  // The files kept under their name (revalidated each time); a hashed one goes without an ETag.
  describe.each(Object.entries(KINDS).filter(([, { path }]) => !path.startsWith("/assets/")))(
    "%s",
    (_kind, { path, text }) => {
      it.each(["gzip, deflate, br, zstd", "gzip, deflate", "identity", ""])(
        "Accept-Encoding %j: 304 for its own ETag",
        async (accept) => {
          await start(compressedWidget());
          const headers: Record<string, string> = accept ? { "Accept-Encoding": accept } : {};
          const etag = (await rawGet(proxy.url + path, headers)).headers["etag"] as string;
          expect(etag).toMatch(/^"[\w-]+"$/);
          const again = await rawGet(proxy.url + path, { ...headers, "If-None-Match": etag });
          expect(again.status).toBe(304);
          expect(again.body.length).toBe(0);
          expect(again.headers["etag"]).toBe(etag);
        },
      );

      it("each coding has its own ETag, and one coding's ETag does not stand for another's", async () => {
        await start(compressedWidget());
        const etags = [];
        for (const coding of ["br", "gzip", "identity"]) {
          etags.push((await rawGet(proxy.url + path, { "Accept-Encoding": coding })).headers["etag"]);
        }
        expect(new Set(etags).size).toBe(3);
        const gzipWithBrTag = await rawGet(proxy.url + path, {
          "Accept-Encoding": "gzip",
          "If-None-Match": etags[0] as string,
        });
        expect(gzipWithBrTag.status).toBe(200);
        expect(gunzipSync(gzipWithBrTag.body).toString("utf8")).toBe(text);
      });
    },
  );

  describe.each(Object.entries(KINDS))("%s", (_kind, { path, text }) => {
    it.each([
      ["gzip, deflate, br, zstd", "br"],
      ["gzip, deflate", "gzip"],
      ["br;q=0, gzip;q=1", "gzip"],
      ["identity", "identity"],
      ["", "identity"],
    ] as const)("Accept-Encoding %j → %s, the same bytes once decoded", async (accept, coding) => {
      await start(compressedWidget());
      const res = await rawGet(proxy.url + path, accept ? { "Accept-Encoding": accept } : {});
      expect(res.status).toBe(200);
      expect(res.headers["content-encoding"]).toBe(coding === "identity" ? undefined : coding);
      expect(res.headers["vary"]).toBe("Accept-Encoding");
      expect(res.headers["content-length"]).toBe(String(res.body.length));
      expect(DECODE[coding](res.body).toString("utf8")).toBe(text);
      // A hashed file is never revalidated (a new file is a new name): no ETag to send.
      expect(res.headers["etag"] === undefined).toBe(path.startsWith("/assets/"));
    });

    it.each(["br", "gz"])("its .%s sibling, asked for by name, is a 404", async (suffix) => {
      await start(compressedWidget());
      const res = await rawGet(`${proxy.url}${path}.${suffix}`, { "Accept-Encoding": "br, gzip" });
      expect(res.status).toBe(404);
    });
  });

  it("hashed files stay cached for a year; entry names and the frame are revalidated", async () => {
    await start(compressedWidget());
    expect(await cache(KINDS["an element's chunk"].path)).toBe("max-age=31536000, immutable");
    expect(await cache(KINDS["a message catalog"].path)).toBe("max-age=31536000, immutable");
    expect(await cache("/widget.js")).toBe("no-cache");
    expect(await cache("/givekit.js")).toBe("no-cache");
    expect(await cache("/frame/card")).toBe("no-cache");
  });

  it("a file the build left without siblings goes as it is, whatever the request accepts", async () => {
    await start(compressedWidget());
    const res = await rawGet(`${proxy.url}/assets/card-Ab12.js`, { "Accept-Encoding": "br, gzip" });
    expect(res.status).toBe(200);
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.body.toString("utf8")).toBe("console.log(1)");
  });

  it.each([
    ["unknown codings only", "zstd, compress, x-snappy"],
    ["identity refused, nothing else offered", "identity;q=0"],
    ["everything refused", "*;q=0"],
    ["nonsense", ';;;, q=, br;q=banana, "gzip"'],
    ["a huge header", `${"x-made-up;q=0.5, ".repeat(500)}gzip;q=0.1`],
  ])("%s: an answer, never a 5xx", async (_what, accept) => {
    await start(compressedWidget());
    const res = await rawGet(`${proxy.url}/widget.js`, { "Accept-Encoding": accept });
    expect(res.status).toBe(200);
    const coding = (res.headers["content-encoding"] as "gzip" | undefined) ?? "identity";
    expect(DECODE[coding](res.body).toString("utf8")).toBe(KINDS["the loader"].text);
  });
});

describe("the headers a donor downloads with each script", () => {
  it("a script or stylesheet carries no document-only header; the frame page and errors keep theirs", async () => {
    await start(compressedWidget());
    for (const path of [
      "/widget.js",
      KINDS["an element's chunk"].path,
      KINDS["the card frame's stylesheet"].path,
    ]) {
      const res = await rawGet(proxy.url + path, { "Accept-Encoding": "br" });
      expect(res.status).toBe(200);
      expect(res.headers["content-security-policy"]).toBeUndefined();
      expect(res.headers["referrer-policy"]).toBeUndefined();
      expect(res.headers["x-frame-options"]).toBeUndefined();
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      // Over plain HTTP no HSTS (RFC 6797 7.2); behind TLS, as the reverse proxy says, HSTS.
      expect(res.headers["strict-transport-security"]).toBeUndefined();
      const overTls = await rawGet(proxy.url + path, {
        "Accept-Encoding": "br",
        "X-Forwarded-Proto": "https",
      });
      expect(overTls.headers["strict-transport-security"]).toBe("max-age=31536000");
    }
    const frame = await rawGet(`${proxy.url}/frame/card`);
    expect(frame.headers["content-security-policy"]).toContain("frame-ancestors");
    expect(frame.headers["referrer-policy"]).toBe("no-referrer");
    const missing = await rawGet(`${proxy.url}/assets/nope-Ab12Cd34.js`);
    expect(missing.status).toBe(404);
    expect(missing.headers["content-security-policy"]).toContain("default-src 'none'");
    expect(missing.headers["x-frame-options"]).toBe("DENY");
  });
});
