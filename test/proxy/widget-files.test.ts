// The built widget served by the proxy: scripts for any site, the card frame only for allowed origins.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
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
  it("/widget.js and /givekit.js: JavaScript any site may load, cached briefly", async () => {
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
      expect(res.headers.get("cache-control")).toContain("max-age=300");
    }
  });

  it("/frame/card: HTML that only the allowed origins may frame", async () => {
    await start(builtWidget());
    const res = await fetch(`${proxy.url}/frame/card`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const policy = res.headers.get("content-security-policy") ?? "";
    expect(policy).toContain(`frame-ancestors ${ALLOWED}`);
    expect(policy).toContain("script-src 'self';");
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
    expect(directives.get("connect-src")).toBe("'self'");
    expect(directives.get("default-src")).toBe("'self'");
  });

  it("/assets/*: hashed files cached for a year; an unchanged file answers 304", async () => {
    await start(builtWidget());
    const res = await fetch(`${proxy.url}/assets/card-Ab12.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const again = await fetch(`${proxy.url}/assets/card-Ab12.js`, {
      headers: { "If-None-Match": res.headers.get("etag")! },
    });
    expect(again.status).toBe(304);
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
