/**
 * `npm run bench:middleware`: the CPU each way of doing the proxy's plumbing costs per
 * request, the proxy's own middleware against Hono's stock ones (bench/middleware-variants.ts).
 * Each pair is served by two processes that take turns under the same load for several rounds;
 * the figure is the median CPU time per request of each (utime + stime from /proc, Linux).
 * Needs `npm run build` first (the static pair serves dist/widget/widget.js).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import type { VariantName } from "./middleware-variants";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 4);
const CONNECTIONS = 16;
const USER_HZ = 100;
const START_TIMEOUT_MS = 30_000;

const DONATION = JSON.stringify({
  shortcode: "71777",
  keyword: "HOPE",
  amount: "25.00",
  donor: { first_name: "Ana", last_name: "Doe", email: "ana@example.org" },
  credit_card_token: "tok_1234567890",
  memo: "x".repeat(600),
});

const PAIRS: { what: string; variants: [VariantName, VariantName]; request: autocannon.Request }[] = [
  {
    what: "JSON body, 16 KB limit (POST, 0.8 KB)",
    variants: ["body, the proxy's", "body, stock"],
    request: { method: "POST", path: "/", body: DONATION, headers: { "content-type": "application/json" } },
  },
  {
    what: "GET /widget.js",
    variants: ["static, the proxy's", "static, stock"],
    request: { method: "GET", path: "/widget.js" },
  },
];

const children: ChildProcess[] = [];

function serve(name: VariantName): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", "bench/middleware-variants.ts", name], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start`)), START_TIMEOUT_MS);
    child.stdout!.on("data", (chunk: Buffer) => {
      const match = /listening on (\S+)/.exec(chunk.toString());
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1]! });
      }
    });
  });
}

function cpuSeconds(pid: number | undefined): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / USER_HZ;
}

async function cpuPerRequest(server: { child: ChildProcess; url: string }, request: autocannon.Request) {
  const before = cpuSeconds(server.child.pid);
  const result = await autocannon({
    url: server.url,
    connections: CONNECTIONS,
    duration: DURATION_S,
    requests: [request],
  });
  const cpu = cpuSeconds(server.child.pid) - before;
  if (result.non2xx > 0) throw new Error(`${server.url} answered ${result.non2xx} non-2xx`);
  return (cpu / result.requests.total) * 1e6;
}

const median = (values: number[]) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]!;

try {
  process.stdout.write(`CPU per request, median of ${ROUNDS} rounds of ${DURATION_S} s each, taking turns\n`);
  for (const pair of PAIRS) {
    const servers = await Promise.all(pair.variants.map(serve));
    const figures: number[][] = [[], []];
    for (let round = 0; round < ROUNDS; round++) {
      for (const [index, server] of servers.entries()) {
        figures[index]!.push(await cpuPerRequest(server, pair.request));
      }
    }
    process.stdout.write(`${pair.what}\n`);
    for (const [index, name] of pair.variants.entries()) {
      const values = figures[index]!;
      process.stdout.write(
        `  ${name.padEnd(22)} ${median(values).toFixed(0).padStart(5)} µs  (${values.map((v) => v.toFixed(0)).join(", ")})\n`,
      );
    }
    for (const { child } of servers) child.kill();
  }
} finally {
  for (const child of children) if (child.exitCode === null) child.kill();
}
