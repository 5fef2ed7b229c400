/**
 * `npm start` (after `npm run build`): in this one process, the sandbox (unless
 * UPSTREAM_BASE_URL names a real upstream), the proxy in front of it, and the demo page, each
 * through its own start…Server function. Prints every URL; Ctrl-C stops all.
 *
 * Environment: DEMO_PORT (8080), DEMO_HOST (127.0.0.1), DEMO_DIR (dist/demo), plus everything
 * the sandbox (SANDBOX_*) and the proxy (see proxy/GUIDE.md) read.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadConfig as loadProxyConfig } from "../proxy/config";
import { loadDisplays } from "../proxy/campaign/directory";
import { startProxyServer } from "../proxy/listen";
import { loadConfig as loadSandboxConfig } from "../sandbox/config";
import { loadFixtureFile } from "../sandbox/fixture";
import { startSandboxServer } from "../sandbox/listen";
import { startDemoServer } from "./demo-server";
import { fromCents } from "../contract/money";
import { TEST_CARDS } from "../sandbox/cards";
import {
  FAULT_CONNECTION_RESET_CENTS,
  FAULT_NEVER_ANSWER_CENTS,
  FAULT_NEVER_ANSWER_UNCHARGED_CENTS,
  FAULT_SERVER_ERROR_CENTS,
} from "../sandbox/routes/donations";
import type { CardOutcome } from "../sandbox/ledger";

/** The sandbox's test cards and fault amounts, as its own constants say them. */
const OUTCOME_WORDS: Record<CardOutcome, string> = {
  success: "succeeds",
  declined: "is declined",
  fatal: "fails",
};
const TEST_CARD_NOTE = Object.entries(TEST_CARDS)
  .map(([number, outcome]) => `${number.replace(/(\d{4})(?=\d)/g, "$1 ")} ${OUTCOME_WORDS[outcome]}`)
  .join(" · ");
const FAULT_NOTE = (
  [
    [FAULT_SERVER_ERROR_CENTS, "server error"],
    [FAULT_NEVER_ANSWER_CENTS, "charged, no answer"],
    [FAULT_CONNECTION_RESET_CENTS, "connection reset"],
    [FAULT_NEVER_ANSWER_UNCHARGED_CENTS, "not charged, no answer"],
  ] as const
)
  .map(([cents, what]) => `${fromCents(cents)} (${what})`)
  .join(" · ");

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SANDBOX_PORT = "4010";
const PROXY_PORT = "8787";
const DEMO_PORT = "8080";

const env = process.env;
const running: { close(): Promise<void> }[] = [];
let stopping = false;

function say(text: string): void {
  process.stdout.write(`${text}\n`);
}

async function stop(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  // The proxy first: it may still be talking to the sandbox.
  for (const server of running.toReversed()) await server.close().catch(() => undefined);
  process.exit(code);
}

async function main(): Promise<void> {
  const demoDir = resolve(ROOT, env.DEMO_DIR || "dist/demo");
  const demoHost = env.DEMO_HOST || "127.0.0.1";
  const demoPort = Number(env.DEMO_PORT || DEMO_PORT);
  if (!Number.isInteger(demoPort) || demoPort < 0 || demoPort > 65_535) {
    throw new Error(`DEMO_PORT: must be a port number (got "${env.DEMO_PORT}")`);
  }
  const built = existsSync(join(demoDir, "index.html"));
  if (!built) {
    say(`note: ${demoDir} is missing: run \`npm run build\` first (\`npm start\` builds before it starts).`);
    say("      The proxy and the sandbox run anyway; the demo page explains what to do.");
  }

  let proxyUrl = "";
  const demo = await startDemoServer({
    dir: demoDir,
    host: demoHost,
    port: demoPort,
    proxyUrl: () => proxyUrl,
  });
  running.push(demo);
  const demoOrigins = [`http://${demoHost}:${demo.port}`];
  if (demoHost === "127.0.0.1") demoOrigins.push(`http://localhost:${demo.port}`);

  const proxyEnv: NodeJS.ProcessEnv = { ...env };
  let sandboxUrl: string | null = null;
  let tokensNote: string;
  if (env.UPSTREAM_BASE_URL) {
    tokensNote = "from UPSTREAM_PRIVATE_TOKEN and UPSTREAM_PUBLIC_TOKEN in your environment";
  } else {
    const config = loadSandboxConfig({ ...env, SANDBOX_PORT: env.SANDBOX_PORT || SANDBOX_PORT });
    // Read once: the sandbox serves it, and the proxy gets its first account's tokens.
    const fixture = loadFixtureFile(config.fixturePath);
    const account = fixture.accounts[0]!;
    const sandbox = await startSandboxServer({ ...config, fixture });
    running.push(sandbox);
    sandboxUrl = sandbox.url;
    proxyEnv.UPSTREAM_BASE_URL = sandbox.url;
    proxyEnv.UPSTREAM_PRIVATE_TOKEN = account.privateToken;
    proxyEnv.UPSTREAM_PUBLIC_TOKEN = account.publicToken;
    tokensNote = `${account.name}'s, in ${config.fixturePath}`;
  }
  proxyEnv.ALLOWED_ORIGINS = [env.ALLOWED_ORIGINS ?? "", ...demoOrigins].filter(Boolean).join(",");
  proxyEnv.PORT = env.PORT || PROXY_PORT;
  const proxyConfig = loadProxyConfig(proxyEnv);
  const proxy = await startProxyServer(proxyConfig);
  running.push(proxy);
  proxyUrl = proxy.url;

  say("");
  say("givekit is running");
  say(`  demo page    ${demoOrigins[0]}/${built ? "" : "   (not built yet)"}`);
  say(`  proxy        ${proxyUrl}   (widget ${proxyUrl}/widget.js, card frame ${proxyUrl}/frame/card)`);
  for (const display of loadDisplays(proxyConfig.campaignsPath).values())
    say(
      `  display      ${proxyUrl}/display/${display.shortcode}/${display.keyword}   (the screen for the room)`,
    );
  say(
    `  upstream     ${sandboxUrl ? `${sandboxUrl}   (the sandbox: see sandbox/README.md)` : env.UPSTREAM_BASE_URL}`,
  );
  say(`  API tokens   ${tokensNote}`);
  if (sandboxUrl) {
    say(`  test cards   ${TEST_CARD_NOTE}`);
    say("               any future expiry (MM/YYYY) and a 3-digit CVV");
    say(`  fault amounts ${FAULT_NOTE}`);
  }
  say("Ctrl-C stops everything.");
  say("");
}

for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void stop(0));

main().catch((error: unknown) => {
  process.stderr.write(`[start] ${error instanceof Error ? error.message : String(error)}\n`);
  void stop(1);
});
