/**
 * Where the proxy's CPU goes on a subscribe: the proxy (proxy/server.ts under tsx) runs with
 * `node --cpu-prof` in front of the instant stub (bench/upstream-stub.ts), takes
 * POST /v1/subscriptions from 16 connections for BENCH_DURATION_S (8), then stops; the profile's
 * self time is printed by where it is spent (givekit's files, each package, Node's own), the
 * top functions beside. The .cpuprofile stays in BENCH_PROFILE_DIR (a temporary folder) for
 * DevTools. Startup is in the profile too, but a few milliseconds beside seconds of load.
 *
 * @example
 * npx tsx bench/profile-subscribe.ts
 */
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { startServer, stopChild } from "./children";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DURATION_S = Number(process.env.BENCH_DURATION_S || 8);
const PROFILE_DIR = process.env.BENCH_PROFILE_DIR || mkdtempSync(join(tmpdir(), "givekit-profile-"));

const SUBSCRIBE_BODY = JSON.stringify({
  mobilenumber: "(415) 555-0132",
  list: "Hope Alerts",
  firstname: "Ana",
  lastname: "Doe",
  consent: true,
  consent_text:
    "I agree to receive recurring automated text messages from Hope Shelter. Msg & data rates may apply.",
});

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code lives: a givekit file, a package, Node's own, or V8's (GC, idle, the program). */
function placeOf(url: string, name: string): string {
  if (!url) return `(${name || "anonymous"})`;
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inPackage) return inPackage[1]!;
  if (url.startsWith("node:")) return url;
  const own = url.indexOf(ROOT);
  return own >= 0 ? url.slice(own + ROOT.length) : url;
}

function summarize(profile: Profile, say: (line: string) => void) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, index) =>
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0)),
  );
  const total = [...self.values()].reduce((sum, us) => sum + us, 0);
  const places = new Map<string, number>();
  const functions = new Map<string, number>();
  for (const [id, us] of self) {
    const { callFrame } = byId.get(id)!;
    const place = placeOf(callFrame.url, callFrame.functionName);
    places.set(place, (places.get(place) ?? 0) + us);
    const fn = `${callFrame.functionName || "(anonymous)"} ${place}:${callFrame.lineNumber + 1}`;
    functions.set(fn, (functions.get(fn) ?? 0) + us);
  }
  // Time spent in a file or below it (what it called), each sample counted once per file.
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const inclusive = new Map<string, number>();
  for (const [id, us] of self) {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const { url, functionName } = byId.get(at)!.callFrame;
      if (url && !url.includes("node_modules") && !url.startsWith("node:"))
        seen.add(placeOf(url, functionName));
    }
    for (const place of seen) inclusive.set(place, (inclusive.get(place) ?? 0) + us);
  }
  const top = (map: Map<string, number>, count: number) =>
    [...map]
      .toSorted((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, us]) => `  ${((100 * us) / total).toFixed(1).padStart(5)} %  ${name}`);
  say(`self time by place (${(total / 1e6).toFixed(1)} s sampled)`);
  for (const line of top(places, 25)) say(line);
  say("time in each givekit file and what it called");
  for (const line of top(inclusive, 30)) say(line);
  say("self time by function");
  for (const line of top(functions, 30)) say(line);
}

const say = (line: string) => process.stdout.write(`${line}\n`);
const stub = await startServer(["--import", "tsx", "bench/upstream-stub.ts"], {}, { cwd: ROOT });
const dataDir = mkdtempSync(join(tmpdir(), "givekit-profile-data-"));
const proxy = await startServer(
  ["--cpu-prof", `--cpu-prof-dir=${PROFILE_DIR}`, "--import", "tsx", "proxy/server.ts"],
  {
    GIVEKIT_RATE_SUBSCRIPTIONS: "1000000",
    GIVEKIT_CAMPAIGNS: join(ROOT, "proxy/campaigns.demo.json"),
    GIVEKIT_WIDGET_DIR: join(ROOT, "dist/widget"),
    PORT: "0",
    HOST: "127.0.0.1",
    UPSTREAM_BASE_URL: stub.url,
    UPSTREAM_PRIVATE_TOKEN: "bench-private",
    UPSTREAM_PUBLIC_TOKEN: "bench-public",
    GIVEKIT_DATA_DIR: dataDir,
  },
  { cwd: ROOT },
);
try {
  const result = await autocannon({
    url: `${proxy.url}/v1/subscriptions`,
    method: "POST",
    body: SUBSCRIBE_BODY,
    headers: { "content-type": "application/json" },
    connections: 16,
    duration: DURATION_S,
  });
  say(`${result.requests.total} subscribes in ${DURATION_S} s, ${result.non2xx} not 2xx`);
} finally {
  await stopChild(proxy.child);
  await stopChild(stub.child);
}
// The main thread's (thread 0): the progress reader's thread writes one of its own.
const file = readdirSync(PROFILE_DIR).find((name) => /\.0\.\d+\.cpuprofile$/.test(name));
if (!file) throw new Error(`No profile in ${PROFILE_DIR}: did the proxy exit cleanly?`);
say(`profile: ${join(PROFILE_DIR, file)}`);
summarize(JSON.parse(readFileSync(join(PROFILE_DIR, file), "utf8")) as Profile, say);
