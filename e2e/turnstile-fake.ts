/**
 * A local stand-in for Cloudflare Turnstile, for the browser tests: its script (the explicit
 * `turnstile.render(el, {sitekey, callback, 'error-callback'})` API, drawing one "I am human"
 * button) and its siteverify endpoint (a "good-…" proof passes once; anything else is refused).
 * It counts the requests for its script, so a test can tell a donor never loaded it.
 *
 * @example
 * const turnstile = await startFakeTurnstile();
 * const env = turnstile.proxyEnv; // TURNSTILE_* for the proxy
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";

export const FAKE_SITE_KEY = "1x-fake-site-key";

const SCRIPT = `
window.turnstile = {
  render(container, options) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = "I am human";
    button.dataset.sitekey = options.sitekey;
    button.addEventListener("click", () => options.callback("good-" + crypto.randomUUID()));
    container.append(button);
    return "fake-widget";
  },
  remove() {},
};
`;

export interface FakeTurnstile {
  /** The proxy's TURNSTILE_* variables pointing at this fake. */
  proxyEnv: Record<string, string>;
  scriptUrl: string;
  /** How many times the script was asked for. */
  scriptRequests(): number;
  /** The proofs the proxy checked, and whether each passed. */
  verified: { proof: string; passed: boolean }[];
  close(): Promise<void>;
}

/** The proxy's TURNSTILE_* variables for the stand-in at `origin`. */
export function fakeTurnstileEnv(origin: string): Record<string, string> {
  return {
    TURNSTILE_SITE_KEY: FAKE_SITE_KEY,
    TURNSTILE_SECRET: "1x-fake-secret",
    TURNSTILE_VERIFY_URL: `${origin}/siteverify`,
    TURNSTILE_SCRIPT_URL: `${origin}/turnstile/v0/api.js?render=explicit`,
  };
}

export async function startFakeTurnstile(): Promise<FakeTurnstile> {
  let scriptRequests = 0;
  const used = new Set<string>();
  const verified: FakeTurnstile["verified"] = [];
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://fake").pathname;
    if (request.method === "GET" && path === "/turnstile/v0/api.js") {
      scriptRequests++;
      response.writeHead(200, { "Content-Type": "text/javascript", "Cache-Control": "no-store" }).end(SCRIPT);
      return;
    }
    if (request.method === "POST" && path === "/siteverify") {
      let text = "";
      request.on("data", (chunk: Buffer) => (text += chunk.toString()));
      request.on("end", () => {
        const { response: proof } = JSON.parse(text) as { response: string };
        const passed = proof.startsWith("good-") && !used.has(proof);
        used.add(proof);
        verified.push({ proof, passed });
        response
          .writeHead(200, { "Content-Type": "application/json" })
          .end(JSON.stringify({ success: passed, "error-codes": passed ? [] : ["invalid-input-response"] }));
      });
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const proxyEnv = fakeTurnstileEnv(origin);
  return {
    proxyEnv,
    scriptUrl: proxyEnv.TURNSTILE_SCRIPT_URL!,
    scriptRequests: () => scriptRequests,
    verified,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// Run as a program (test/helpers/sandbox-process.ts), it answers on an event loop of its own.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  void startFakeTurnstile().then((fake) => {
    process.stdout.write(`fake Turnstile listening on ${new URL(fake.scriptUrl).origin}\n`);
    process.once("SIGTERM", () => void fake.close().then(() => process.exit(0)));
  });
}
