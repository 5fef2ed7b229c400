/**
 * The picker on a national walk's page: 48,000 walkers and 2,000 teams (the sandbox's bulk
 * route), a phone's CPU (Chromium at 4x slower), the proxy built and run as its own process
 * (as a deployment runs it) so its memory is its own. Typing shows the first 20 matches within
 * 300 ms of the keystroke with no long task over 100 ms, each keystroke moves at most 10 KB,
 * a `?fundraiser=` link credits its walker (the sandbox's row says so), and the proxy stays
 * under 150 MB.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "@playwright/test";
import { DEFAULT_CAMPAIGNS_PATH } from "../proxy/config";
import { DEMO, startSandbox, type SandboxHandle } from "../test/helpers/sandbox";
import {
  chooseAndFillDonor,
  donateOf,
  expectOneCharge,
  fillCardAtOnce,
  cardOf,
  reachDonate,
  TOTAL,
  uniqueLastName,
} from "./donor-helpers";
import { expect, startHostServer, test, type HostServer } from "./fixtures";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BUILT_PROXY = join(ROOT, "dist/server/proxy.js");
const WALKERS = 48_000;
const TEAMS = 2_000;
const PEERS_PATH = "/v1/campaigns/71777/HOPE/peers";

/** /proc's figures of a process, in MB: resident now (VmRSS) and at its peak (VmHWM). */
function memoryOf(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const mb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)![1]) / 1024;
  return { rss: mb("VmRSS"), peak: mb("VmHWM") };
}

let sandbox: SandboxHandle;
let host: HostServer;
let proxy: { url: string; child: ChildProcess };
let dataDir: string;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(90_000);
  if (!existsSync(BUILT_PROXY))
    throw new Error("dist/server/proxy.js is missing: run `npm run build` first.");
  sandbox = await startSandbox();
  const bulk = await fetch(`${sandbox.url}/_sandbox/bulk`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ shortcode: "71777", keyword: "HOPE", fundraisers: WALKERS, teams: TEAMS }),
  });
  expect(bulk.status).toBe(200);
  host = await startHostServer(() => proxy.url);
  dataDir = mkdtempSync(join(tmpdir(), "givekit-peers-scale-"));
  // Run as proxy/GUIDE.md's systemd unit runs it: with its young generation bounded.
  const child = spawn(process.execPath, ["--max-semi-space-size=4", BUILT_PROXY], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      HOST: "127.0.0.1",
      PORT: "0",
      UPSTREAM_BASE_URL: sandbox.url,
      UPSTREAM_PRIVATE_TOKEN: DEMO.hope.privateToken,
      UPSTREAM_PUBLIC_TOKEN: DEMO.hope.publicToken,
      ALLOWED_ORIGINS: host.url,
      GIVEKIT_DATA_DIR: dataDir,
      GIVEKIT_CAMPAIGNS: DEFAULT_CAMPAIGNS_PATH,
      GIVEKIT_WIDGET_DIR: join(ROOT, "dist/widget"),
      GIVEKIT_MIN_FORM_MS: "0",
      GIVEKIT_RECONCILE_INTERVAL_S: "0",
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
    child.once("exit", (code) => reject(new Error(`the proxy exited (${code}): ${stderr}`)));
  });
  proxy = { url, child };
});

test.afterAll(async () => {
  if (proxy?.child.exitCode === null) {
    proxy.child.kill("SIGTERM");
    await new Promise((resolve) => proxy.child.once("exit", resolve));
  }
  await host?.close();
  await sandbox?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** A phone: its screen, and Chromium's CPU four times slower. */
async function asPhone(page: Page) {
  await page.setViewportSize({ width: 390, height: 844 });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
}

test.use({ viewport: { width: 390, height: 844 } });

test("typing a letter in the picker on a phone shows the first 20 within 300 ms, no long task, a few KB a keystroke", async ({
  page,
}) => {
  // The proxy's first load of the lists (the cold search) is its own figure (bench/scale-peers.ts): here it is done.
  const cold = await fetch(`${proxy.url}${PEERS_PATH}?q=zz`);
  expect(cold.status).toBe(200);
  const sizes: { url: string; bytes: number }[] = [];
  page.on("requestfinished", (request) => {
    if (!request.url().includes("/peers")) return;
    void request
      .sizes()
      .then((size) =>
        sizes.push({ url: request.url(), bytes: size.responseBodySize + size.responseHeadersSize }),
      );
  });
  await asPhone(page);
  await page.goto(`${host.url}/walk.html`);
  const picker = donateOf(page).getByRole("combobox", { name: /fundraiser or team/ });
  await expect(picker).toBeVisible();
  // Long tasks, and for each first letter typed the time from its keydown to a list of 20,
  // seen from inside the page.
  await page.evaluate(() => {
    const seen = { longTasks: [] as number[], keyAt: 0, shownAt: 0 };
    (window as unknown as { peerFigures: typeof seen }).peerFigures = seen;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) seen.longTasks.push(entry.duration);
    }).observe({ type: "longtask" });
    document.addEventListener(
      "keydown",
      (event) => {
        seen.keyAt = event.timeStamp;
        seen.shownAt = 0;
      },
      { capture: true },
    );
    const root = document.querySelector("givekit-donate")!.shadowRoot!;
    new MutationObserver(() => {
      if (!seen.shownAt && root.querySelectorAll('[role="option"]').length === 20)
        seen.shownAt = performance.now();
    }).observe(root, { subtree: true, childList: true, attributes: true });
  });
  const figures = () =>
    page.evaluate(
      () =>
        (window as unknown as { peerFigures: { longTasks: number[]; keyAt: number; shownAt: number } })
          .peerFigures,
    );
  // Three donors' first letters (the median of three: the machine is shared with other tests).
  const shown: number[] = [];
  for (const letter of ["g", "b", "a"]) {
    await picker.fill("");
    await page.waitForTimeout(400);
    await picker.focus();
    await page.keyboard.press(letter);
    await expect(donateOf(page).getByRole("option")).toHaveCount(20);
    const seen = await figures();
    shown.push(seen.shownAt - seen.keyAt);
  }
  test.info().annotations.push({
    type: "a first letter: list of 20 shown after (ms)",
    description: shown.map((ms) => ms.toFixed(0)).join(", "),
  });
  expect(shown.toSorted((x, y) => x - y)[1]).toBeLessThan(300);
  // Announced with the rest the proxy counted ("4800 matches."), not the 20 shown.
  await expect(
    donateOf(page)
      .getByRole("status")
      .filter({ hasText: /^\d{3,} matches\.$/ }),
  ).toHaveCount(1);
  // More letters, each after a pause: each its own request.
  for (const letter of ["n", "a"]) {
    await page.keyboard.press(letter);
    await page.waitForTimeout(400);
  }
  await expect(donateOf(page).getByRole("option").first()).toContainText("Ana");
  const longest = Math.max(
    0,
    ...(await page.evaluate(
      () => (window as unknown as { peerFigures: { longTasks: number[] } }).peerFigures.longTasks,
    )),
  );
  test.info().annotations.push({ type: "longest task (ms)", description: longest.toFixed(0) });
  expect(longest).toBeLessThanOrEqual(100);
  await expect.poll(() => sizes.length).toBeGreaterThanOrEqual(5);
  test
    .info()
    .annotations.push({ type: "bytes per keystroke", description: sizes.map((s) => s.bytes).join(", ") });
  for (const size of sizes) expect(size.bytes).toBeLessThanOrEqual(10 * 1024);
});

test("a ?fundraiser= link credits its walker, looked up by id alone; the sandbox's row says so", async ({
  page,
}) => {
  const found = (await (
    await fetch(`${proxy.url}${PEERS_PATH}?q=${encodeURIComponent("grace 31")}`)
  ).json()) as {
    peers: { id: string; name: string; kind: string }[];
  };
  const walker = found.peers.find((peer) => peer.kind === "fundraiser")!;
  expect(walker).toBeDefined();
  const asked: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/peers")) asked.push(new URL(request.url()).search);
  });
  await asPhone(page);
  await page.goto(`${host.url}/walk.html?fundraiser=${encodeURIComponent(walker.id)}`);
  const donate = donateOf(page);
  await expect(donate.getByText(new RegExp(`Your gift supports ${walker.name}`))).toBeVisible();
  expect(asked).toEqual([`?fundraiser=${encodeURIComponent(walker.id)}`]);
  const lastName = uniqueLastName("Walker");
  await chooseAndFillDonor(page, lastName);
  await reachDonate(donate);
  await fillCardAtOnce(cardOf(page));
  await (await reachDonate(donate, new RegExp(`^Donate \\$${TOTAL.replace(".", "\\.")}`))).click();
  await expectOneCharge(page, sandbox, lastName);
  const [row] = (await sandbox.transactions({ keyword: "HOPE" })).filter((r) => r.last_name === lastName);
  expect(row).toMatchObject({ peer_fundraiser_id: walker.id });
});

/**
 * The README's target for the proxy's peak at 50,000 peers: 143-144 MB on Node 24 and 129
 * on Node 20 since the peer index's sorts merge between two arrays made once (153 MB on Node 24
 * when each merge made arrays of its own).
 */
const TARGET_MB = 150;

test("the proxy stayed under its memory target (150 MB)", () => {
  const memory = memoryOf(proxy.child.pid!);
  test.info().annotations.push({
    type: "proxy memory (MB)",
    description: `now ${memory.rss.toFixed(0)}, peak ${memory.peak.toFixed(0)}`,
  });
  process.stdout.write(
    `peers at 50,000: the proxy's peak ${memory.peak.toFixed(1)} MB (target ${TARGET_MB})\n`,
  );
  expect(memory.peak).toBeLessThan(TARGET_MB);
});
