/**
 * The browser tests' servers: a sandbox, a proxy in front of it, and a host page server on a
 * DIFFERENT origin (another port) serving e2e/pages/*.html with `__GIVEKIT_PROXY__` replaced
 * by the proxy's URL. They start once per worker and are shared by its tests, which tell
 * their records apart by unique names.
 *
 * @example
 * import { expect, test } from "./fixtures";
 * test("a donation", async ({ page, sandbox, hostUrl }) => {
 *   await page.goto(`${hostUrl}/donate.html`);
 * });
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { test as base } from "@playwright/test";
import { REFERENCE_PATTERN } from "../contract/patterns";
import { SOURCE_PREFIX } from "../proxy/reconcile/match";
import { startProxy, type ProxyHandle } from "../test/helpers/proxy";
import { startSandbox, type SandboxHandle } from "../test/helpers/sandbox";

export { expect } from "@playwright/test";

const PAGES_DIR = fileURLToPath(new URL("./pages/", import.meta.url));
const BUILT_WIDGET = fileURLToPath(new URL("../dist/widget/widget.js", import.meta.url));
const PROXY_PLACEHOLDER = /__GIVEKIT_PROXY__/g;
const CONTENT_TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  js: "text/javascript; charset=utf-8",
};
const PAGE_NAME = /^\/([a-z0-9-]+\.(html|js))$/;

/**
 * Limits high enough for a worker's whole run from one IP (127.0.0.1); the limits themselves
 * are the proxy's own tests' business. The decline block stays low enough to matter nowhere.
 */
const E2E_PROXY_ENV = {
  GIVEKIT_RATE_PAYMENT_TOKENS: "1000",
  GIVEKIT_RATE_DONATIONS: "1000",
  GIVEKIT_RATE_SUBSCRIPTIONS: "1000",
  GIVEKIT_DECLINE_LIMIT: "1000",
  // Likewise the whole-traffic card-testing signals (test/proxy/card-testing.test.ts).
  GIVEKIT_DEFENCE_TOKENS_PER_MIN: "100000",
  GIVEKIT_DEFENCE_DECLINES_PER_MIN: "100000",
  GIVEKIT_DEFENCE_CARDS_PER_MIN: "100000",
  GIVEKIT_DEFENCE_MIN_SAMPLE: "100000",
  GIVEKIT_DEFENCE_CAMPAIGN_TOKENS_PER_MIN: "100000",
  GIVEKIT_DEFENCE_CAMPAIGN_DECLINES_PER_MIN: "100000",
  GIVEKIT_DEFENCE_CAMPAIGN_CARDS_PER_MIN: "100000",
  GIVEKIT_DEFENCE_BIN_CARDS: "100000",
  // The BIN's circuit breaker: the worker's declining test card is one BIN, whose breaker would
  // put every campaign in defence mode for the tests after it (its own tests: test/proxy/defence/).
  GIVEKIT_BREAKER_BIN_DECLINES: "100000",
};

/** The source a givekit donation gets upstream: givekit's, tagged with its attempt's reference. */
export const GIVEKIT_SOURCE = new RegExp(`^api_via_${SOURCE_PREFIX}\\.${REFERENCE_PATTERN.source.slice(1)}`);

export interface HostServer {
  url: string;
  /** Sends `headers` with the page `name` ("csp.html") from now on, as a site's server would. */
  setPageHeaders(name: string, headers: Record<string, string>): void;
  close(): Promise<void>;
}

/** Serves e2e/pages/*.html (and their shared scripts) on 127.0.0.1 (an ephemeral port), naming the proxy in each page. */
export async function startHostServer(proxyUrl: () => string): Promise<HostServer> {
  const pageHeaders = new Map<string, Record<string, string>>();
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://host").pathname;
    const [, name, extension] = PAGE_NAME.exec(path) ?? [];
    if (request.method !== "GET" || !name) {
      response.writeHead(404, { "Content-Type": "text/plain" }).end("Not found");
      return;
    }
    readFile(PAGES_DIR + name, "utf8").then(
      (html) => {
        response
          .writeHead(200, {
            "Content-Type": CONTENT_TYPES[extension!],
            "Cache-Control": "no-store",
            ...pageHeaders.get(name),
          })
          .end(html.replace(PROXY_PLACEHOLDER, proxyUrl()));
      },
      () => response.writeHead(404, { "Content-Type": "text/plain" }).end("Not found"),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    setPageHeaders: (name, headers) => pageHeaders.set(name, headers),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

export interface Servers {
  sandbox: SandboxHandle;
  proxy: ProxyHandle;
  host: HostServer;
}

/**
 * A sandbox, a proxy in front of it (with `proxyEnv`) and a host page server on another origin,
 * for the length of `use`; closed after it, even when it throws.
 */
export async function withServers(
  proxyEnv: Record<string, string>,
  use: (servers: Servers) => Promise<void>,
) {
  if (!existsSync(BUILT_WIDGET)) {
    throw new Error("dist/widget/widget.js is missing: run `npm run build` before the browser tests.");
  }
  const sandbox = await startSandbox();
  let proxyUrl = "";
  const host = await startHostServer(() => proxyUrl);
  const proxy = await startProxy({ upstreamUrl: sandbox.url, allowedOrigins: [host.url], env: proxyEnv });
  proxyUrl = proxy.url;
  try {
    await use({ sandbox, proxy, host });
  } finally {
    await host.close();
    await proxy.close();
    await sandbox.close();
  }
}

export const test = base.extend<
  {
    sandbox: SandboxHandle;
    /** The givekit proxy (named apart from Playwright's own `proxy` option). */
    proxyServer: ProxyHandle;
    hostUrl: string;
    /** The host page server, to send a page with headers of its own. */
    hostServer: HostServer;
  },
  { servers: Servers }
>({
  servers: [
    // oxlint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture needs from this pattern.
    async ({}, use) => withServers(E2E_PROXY_ENV, use),
    { scope: "worker" },
  ],
  sandbox: async ({ servers }, use) => use(servers.sandbox),
  proxyServer: async ({ servers }, use) => use(servers.proxy),
  hostUrl: async ({ servers }, use) => use(servers.host.url),
  hostServer: async ({ servers }, use) => use(servers.host),
});
