/**
 * `npm start` (after `npm run build`): the sandbox (unless UPSTREAM_BASE_URL names a real
 * upstream), the proxy in front of it, and a demo page server for dist/demo/ whose
 * `__GIVEKIT_PROXY__` placeholders become the proxy's URL. Prints every URL; Ctrl-C stops all.
 *
 * Environment: DEMO_PORT (8080), DEMO_HOST (127.0.0.1), DEMO_DIR (dist/demo), plus everything
 * the sandbox (SANDBOX_*) and the proxy (see proxy/README.md) read.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DEFAULT_FIXTURE = "sandbox/fixtures/demo.json";
const PROXY_PLACEHOLDER = "__GIVEKIT_PROXY__";
/** How long a child may take to say it is listening. */
const START_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 5_000;

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".webp": "image/webp",
  ".ico": "image/x-icon",
  ".json": "application/json",
  ".woff2": "font/woff2",
};

const env = process.env;
const children: ChildProcess[] = [];
let demoServer: Server | undefined;
let stopping = false;

function say(text: string): void {
  process.stdout.write(`${text}\n`);
}

/** Runs a TypeScript entry of this repository as a child, its output prefixed line by line. */
function runChild(name: string, entry: string, childEnv: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(process.execPath, ["--import", "tsx", entry], {
    cwd: ROOT,
    env: childEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  for (const stream of [child.stdout, child.stderr]) {
    let pending = "";
    stream?.on("data", (chunk: Buffer) => {
      pending += chunk.toString("utf8");
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) process.stdout.write(`[${name}] ${line}\n`);
    });
  }
  child.on("exit", (code, signal) => {
    if (stopping) return;
    say(`[start] the ${name} stopped (${signal ?? `exit code ${code}`}); stopping everything.`);
    void stop(1);
  });
  return child;
}

/** Resolves with the URL the child prints in "… listening on <url>". */
function listeningUrl(name: string, child: ChildProcess): Promise<string> {
  return new Promise((resolveUrl, reject) => {
    let seen = "";
    const timer = setTimeout(
      () => reject(new Error(`the ${name} did not start within ${START_TIMEOUT_MS} ms`)),
      START_TIMEOUT_MS,
    );
    const look = (chunk: Buffer) => {
      seen += chunk.toString("utf8");
      const match = /listening on (https?:\/\/\S+)/.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolveUrl(match[1]!);
      }
    };
    child.stdout?.on("data", look);
    child.stderr?.on("data", look);
    child.once("exit", () => {
      clearTimeout(timer);
      reject(new Error(`the ${name} exited before listening`));
    });
  });
}

/** The first account of the sandbox's fixture: whose tokens the proxy gets. */
function fixtureAccount(path: string): { name: string; private_token: string; public_token: string } {
  const fixture = JSON.parse(readFileSync(resolve(ROOT, path), "utf8")) as {
    accounts: { name: string; private_token: string; public_token: string }[];
  };
  const account = fixture.accounts[0];
  if (!account) throw new Error(`${path} has no account`);
  return account;
}

const NOT_BUILT_PAGE = `<!doctype html><meta charset="utf-8"><title>givekit: not built</title>
<h1>The demo page is not built yet</h1><p>Run <code>npm run build</code> (or <code>npm start</code>, which builds first) and reload.</p>`;

/** Serves the demo directory, with the proxy's URL put into the HTML. */
function startDemoServer(dir: string, proxyUrl: () => string, host: string, port: number): Promise<Server> {
  const root = resolve(dir);
  const server = createServer((req, res) => {
    void (async () => {
      const path = decodeURIComponent(new URL(req.url ?? "/", "http://demo").pathname);
      const file = normalize(join(root, path.endsWith("/") ? `${path}index.html` : path));
      if (file !== root && !file.startsWith(root + sep)) {
        res.writeHead(404).end("Not found");
        return;
      }
      const info = await stat(file).catch(() => null);
      if (!info?.isFile()) {
        const built = existsSync(join(root, "index.html"));
        res.writeHead(built ? 404 : 503, { "Content-Type": "text/html; charset=utf-8" });
        res.end(built ? "Not found" : NOT_BUILT_PAGE);
        return;
      }
      const type = CONTENT_TYPES[extname(file)] ?? "application/octet-stream";
      let body: Buffer | string = await readFile(file);
      if (type.startsWith("text/html"))
        body = body.toString("utf8").replaceAll(PROXY_PLACEHOLDER, proxyUrl());
      res.writeHead(200, { "Content-Type": type, "Cache-Control": "no-cache" }).end(body);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  return new Promise((resolveServer, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolveServer(server));
  });
}

async function stop(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  demoServer?.close();
  demoServer?.closeAllConnections();
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((done) => {
          if (child.exitCode !== null || child.signalCode !== null) return done();
          const force = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
          child.once("exit", () => {
            clearTimeout(force);
            done();
          });
          child.kill("SIGTERM");
        }),
    ),
  );
  process.exit(code);
}

async function main(): Promise<void> {
  const demoDir = resolve(ROOT, env.DEMO_DIR || "dist/demo");
  const demoHost = env.DEMO_HOST || "127.0.0.1";
  const demoPort = Number(env.DEMO_PORT || "8080");
  if (!Number.isInteger(demoPort) || demoPort < 0 || demoPort > 65_535) {
    throw new Error(`DEMO_PORT: must be a port number (got "${env.DEMO_PORT}")`);
  }
  const built = existsSync(join(demoDir, "index.html"));
  if (!built) {
    say(`note: ${demoDir} is missing: run \`npm run build\` first (\`npm start\` builds before it starts).`);
    say("      The proxy and the sandbox run anyway; the demo page explains what to do.");
  }

  let proxyUrl = "";
  demoServer = await startDemoServer(demoDir, () => proxyUrl, demoHost, demoPort);
  const demoAddress = demoServer.address() as AddressInfo;
  const demoOrigins = [`http://${demoHost}:${demoAddress.port}`];
  if (demoHost === "127.0.0.1") demoOrigins.push(`http://localhost:${demoAddress.port}`);

  const proxyEnv: NodeJS.ProcessEnv = { ...env };
  let sandboxUrl: string | null = null;
  let tokensNote: string;
  if (env.UPSTREAM_BASE_URL) {
    tokensNote = "from UPSTREAM_PRIVATE_TOKEN and UPSTREAM_PUBLIC_TOKEN in your environment";
  } else {
    const fixture = env.SANDBOX_FIXTURE || DEFAULT_FIXTURE;
    const account = fixtureAccount(fixture);
    const sandbox = runChild("sandbox", "sandbox/server.ts", {
      ...env,
      SANDBOX_PORT: env.SANDBOX_PORT || "4010",
    });
    sandboxUrl = await listeningUrl("sandbox", sandbox);
    proxyEnv.UPSTREAM_BASE_URL = sandboxUrl;
    proxyEnv.UPSTREAM_PRIVATE_TOKEN = account.private_token;
    proxyEnv.UPSTREAM_PUBLIC_TOKEN = account.public_token;
    tokensNote = `${account.name}'s, in ${fixture} (given to the proxy through its environment)`;
  }
  proxyEnv.ALLOWED_ORIGINS = [env.ALLOWED_ORIGINS ?? "", ...demoOrigins].filter(Boolean).join(",");
  proxyEnv.PORT = env.PORT || "8787";
  const proxy = runChild("proxy", "proxy/server.ts", proxyEnv);
  proxyUrl = await listeningUrl("proxy", proxy);

  say("");
  say("givekit is running");
  say(`  demo page    ${demoOrigins[0]}/${built ? "" : "   (not built yet)"}`);
  say(`  proxy        ${proxyUrl}   (widget ${proxyUrl}/widget.js, card frame ${proxyUrl}/frame/card)`);
  say(
    `  upstream     ${sandboxUrl ? `${sandboxUrl}   (the sandbox: see sandbox/README.md)` : env.UPSTREAM_BASE_URL}`,
  );
  say(`  API tokens   ${tokensNote}`);
  if (sandboxUrl) {
    say(
      "  test cards   4242 4242 4242 4242 succeeds · 4000 0000 0000 0002 is declined · 4000 0000 0000 0119 fails",
    );
    say("               any future expiry (MM/YYYY) and a 3-digit CVV");
    say("  fault amounts 666.66 (server error) · 777.77 (charged, no answer) · 888.88 (connection reset)");
  }
  say("Ctrl-C stops everything.");
  say("");
}

for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void stop(0));

main().catch((error: unknown) => {
  process.stderr.write(`[start] ${error instanceof Error ? error.message : String(error)}\n`);
  void stop(1);
});
