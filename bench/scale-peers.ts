/**
 * The peer picker at scale: for a walk of 1,000, 10,000 and 50,000 walkers and teams, what one
 * search costs on the wire and in time, cold (the proxy's first, which loads the lists into its
 * index) and warm (the same letters again, and other letters on the loaded index), and the
 * proxy's memory; plus the index's own heap per 10,000 peers. Medians of BENCH_PEER_ROUNDS (7).
 *
 * The sandbox runs in this process (its bulk route makes the walkers); each size gets a fresh
 * proxy of its own (the built dist/server/proxy.js when there is one, as a deployment runs it;
 * else the source under tsx), whose memory is read from /proc.
 *
 *   npx tsx bench/scale-peers.ts
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { request } from "node:http";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { Peer } from "../contract/api";
import { createPeerIndex } from "../proxy/campaign/peer-index";
import { loopDelay, METRICS_TOKEN } from "../test/helpers/loop-delay";
import { PROXY_NODE_ARGS } from "./scale-gifts";
import { DEMO, startSandbox } from "../test/helpers/sandbox";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const ROUNDS = Number(process.env.BENCH_PEER_ROUNDS || 7);
/** BENCH_PEER_SIZES (comma list) picks the sizes. */
const SIZES = process.env.BENCH_PEER_SIZES?.split(",").map(Number) ?? [1000, 10_000, 50_000];
const PATH = "/v1/campaigns/71777/HOPE/peers";
/** What a donor types, letter by letter, then other names on the same index. */
const TYPED = ["a", "an", "ana"];
const OTHERS = ["gr", "ba", "chloe d", "team", "hiro 4"];

export interface PeerScaleFigures {
  peers: number;
  /** The first search, loading the lists: ms, and bytes on the wire (Brotli). */
  coldMs: number;
  coldBytes: number;
  /** The same search again (an answer the proxy kept), median ms. */
  warmSameMs: number;
  /** Other searches on the loaded index (each answer made and compressed), median ms. */
  warmOtherMs: number;
  /** The biggest answer of a donor typing "a", "an", "ana", on the wire. */
  keystrokeMaxBytes: number;
  /** The proxy's resident memory: at start, after the searches, and its peak. */
  rssStartMb: number;
  rssAfterMb: number;
  rssPeakMb: number;
  /** The proxy's event-loop delay while the first search loads the lists (its /metrics), ms. */
  coldLoopP99Ms: number;
  coldLoopMaxMs: number;
}

const median = (values: number[]) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]!;

function get(url: string): Promise<{ status: number; bytes: number; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    request(url, { headers: { "Accept-Encoding": "br, gzip" } }, (res) => {
      let bytes = 0;
      res.on("data", (chunk: Buffer) => (bytes += chunk.length));
      res.on("end", () => resolve({ status: res.statusCode!, bytes, ms: performance.now() - started }));
    })
      .on("error", reject)
      .end();
  });
}

/** VmRSS and VmHWM of a process, in MB. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
}

/** The built proxy (`npm run build`), as a deployment runs it; else the source under tsx (about 35 MB more). */
const BUILT_PROXY = `${ROOT}dist/server/proxy.js`;
/** The GUIDE's unit's node options, then BENCH_PROXY_NODE_ARGS's (bench/scale-gifts.ts). */
const PROXY_ARGS = [
  ...PROXY_NODE_ARGS,
  ...(existsSync(BUILT_PROXY) ? [BUILT_PROXY] : ["--import", "tsx", "proxy/server.ts"]),
];

async function startProxy(upstreamUrl: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, PROXY_ARGS, {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      HOST: "127.0.0.1",
      PORT: "0",
      UPSTREAM_BASE_URL: upstreamUrl,
      UPSTREAM_PRIVATE_TOKEN: DEMO.hope.privateToken,
      UPSTREAM_PUBLIC_TOKEN: DEMO.hope.publicToken,
      GIVEKIT_DATA_DIR: `${ROOT}node_modules/.cache/givekit-scale-peers-${process.pid}-${Date.now()}`,
      GIVEKIT_RECONCILE_INTERVAL_S: "0",
      GIVEKIT_METRICS_TOKEN: METRICS_TOKEN,
      ...(process.env.BENCH_PROXY_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_PROXY_NODE_OPTIONS } : {}),
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the proxy did not start: ${stderr}`)), 30_000);
    child.stderr!.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.on("exit", (code) => reject(new Error(`the proxy exited (${code}): ${stderr}`)));
  });
  return { url, child };
}

async function measure(size: number): Promise<PeerScaleFigures> {
  const sandbox = await startSandbox();
  const { child, url } = await startProxy(sandbox.url).catch(async (error: unknown) => {
    await sandbox.close();
    throw error;
  });
  try {
    const teams = Math.round(size / 25);
    const bulk = await fetch(`${sandbox.url}/_sandbox/bulk`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ shortcode: "71777", keyword: "HOPE", fundraisers: size - teams, teams }),
    });
    if (!bulk.ok) throw new Error(`the sandbox's bulk route answered ${bulk.status}: ${await bulk.text()}`);
    const start = memoryOf(child.pid!);
    await loopDelay(url);
    const cold = await get(`${url}${PATH}?q=a`);
    if (cold.status !== 200) throw new Error(`the first search answered ${cold.status}`);
    const coldLoop = await loopDelay(url);
    const keystrokes = await Promise.all(TYPED.map((q) => get(`${url}${PATH}?q=${encodeURIComponent(q)}`)));
    const same: number[] = [];
    const others: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      same.push((await get(`${url}${PATH}?q=a`)).ms);
      // A number per round makes each one a search the proxy has not answered yet.
      const query = `${OTHERS[round % OTHERS.length]} ${round + 1}`;
      others.push((await get(`${url}${PATH}?q=${encodeURIComponent(query)}`)).ms);
    }
    const after = memoryOf(child.pid!);
    return {
      peers: size,
      coldMs: cold.ms,
      coldBytes: cold.bytes,
      coldLoopP99Ms: coldLoop.p99,
      coldLoopMaxMs: coldLoop.max,
      warmSameMs: median(same),
      warmOtherMs: median(others),
      keystrokeMaxBytes: Math.max(...keystrokes.map((k) => k.bytes)),
      rssStartMb: start.rss,
      rssAfterMb: after.rss,
      rssPeakMb: after.peak,
    };
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
    await sandbox.close();
  }
}

/** The index's own heap per 10,000 peers (names like the sandbox's walkers, some on teams). */
export function indexBytesPer10k(count = 50_000): number {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  const peers: Peer[] = Array.from({ length: count }, (_, i) => ({
    id: `bulk-kw-hope-1-f${i}`,
    name: `${["Ana", "Ben", "Chloe", "Dev", "Elena"][i % 5]} ${["Abbott", "Baker", "Costa"][i % 3]} ${i}`,
    kind: "fundraiser",
    team_id: i % 3 === 0 ? null : `bulk-kw-hope-1-t${i % 2000}`,
    team_name: i % 3 === 0 ? null : `Team Harbor ${i % 2000}`,
    raised: "0.00",
    goal: null,
  }));
  gc();
  const before = process.memoryUsage().heapUsed;
  const index = createPeerIndex(peers);
  gc();
  // The peers it was built from are still held (they were counted before), so this is the index alone.
  const used = process.memoryUsage().heapUsed - before;
  if (index.size !== peers.length) throw new Error("the index lost peers");
  return (used / count) * 10_000;
}

/** Runs every size and prints a row per figure; resolves with the figures. */
export async function scalePeersBench(
  // oxlint-disable-next-line no-console -- a bench prints its figures.
  say: (line: string) => void = console.log,
): Promise<{
  sizes: PeerScaleFigures[];
  indexMbPer10k: number;
}> {
  const indexMbPer10k = indexBytesPer10k() / 1024 / 1024;
  say(`peer search index: ${indexMbPer10k.toFixed(2)} MB of heap per 10,000 peers`);
  say(`proxy: ${PROXY_ARGS.join(" ")}`);
  const sizes: PeerScaleFigures[] = [];
  for (const size of SIZES) {
    const f = await measure(size);
    sizes.push(f);
    say(
      `peers ${size.toLocaleString("en")}: search "a" cold ${f.coldMs.toFixed(0)} ms, ${f.coldBytes} B ` +
        `(event-loop delay p99 ${f.coldLoopP99Ms.toFixed(1)} ms max ${f.coldLoopMaxMs.toFixed(1)} ms); ` +
        `warm (same) ${f.warmSameMs.toFixed(1)} ms, warm (other) ${f.warmOtherMs.toFixed(1)} ms; ` +
        `largest keystroke ${f.keystrokeMaxBytes} B; proxy RSS ${f.rssStartMb.toFixed(0)} → ${f.rssAfterMb.toFixed(0)} MB (peak ${f.rssPeakMb.toFixed(0)} MB)`,
    );
  }
  return { sizes, indexMbPer10k };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await scalePeersBench();
}
