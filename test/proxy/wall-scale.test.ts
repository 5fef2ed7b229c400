// 1,000 screens on one proxy's live feed: the upstream still sees one report read per interval.
import { Agent, get } from "node:http";
import { describe, expect, it } from "vitest";
import { donate, donationBody, tokenize, upstreamCalls, useStack } from "./support";

const REPORT_PATH = "/api/v2/reports/transactions.json";
const SCREENS = 1000;
const INTERVAL_S = 1;

/** What the screens ask for: the figures and the wall, and a third each the teams' or the fundraisers' board. */
const VIEWS = ["", "?of=teams", "?of=fundraisers"] as const;

/** One screen: counts the `figures` messages it got and keeps the last one's raised and first leader. */
function screen(url: string, agent: Agent) {
  const state = { messages: 0, raised: "", leader: "", open: false };
  let buffer = "";
  const request = get(url, { agent }, (res) => {
    state.open = res.statusCode === 200;
    res.setEncoding("utf8");
    res.on("data", (chunk: string) => {
      buffer += chunk;
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = block.split("\n").find((line) => line.startsWith("data: "));
        if (!data) continue;
        state.messages++;
        const message = JSON.parse(data.slice(6)) as {
          progress: { raised: string };
          leaders?: { name: string; raised: string }[];
        };
        state.raised = message.progress.raised;
        state.leader = message.leaders ? `${message.leaders[0]?.name} ${message.leaders[0]?.raised}` : "";
      }
    });
  });
  const done = new Promise<void>((resolve) => request.on("close", () => resolve()));
  request.on("error", () => undefined);
  return { state, close: () => request.destroy(), done };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const megabytes = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

describe("the live feed at gala scale", () => {
  const ctx = useStack({ proxy: { env: { GIVEKIT_PROGRESS_CACHE_S: String(INTERVAL_S) } } });

  it(`${SCREENS} connections: one report read per interval, every screen gets each new figure, memory bounded`, async () => {
    await donate(ctx.api, donationBody(await tokenize(ctx.api), { amount: "10.00" }));
    const url = `${ctx.proxy.url}/v1/campaigns/71777/HOPE/live`;
    // The first screen reads the report; the rest join the figures it left.
    expect((await ctx.api.get("/v1/campaigns/71777/HOPE/progress")).status).toBe(200);
    globalThis.gc?.();
    const before = process.memoryUsage();
    const agent = new Agent({ keepAlive: false });
    const screens = Array.from({ length: SCREENS }, (_, i) =>
      screen(`${url}${VIEWS[i % VIEWS.length]}`, agent),
    );
    try {
      for (let waited = 0; screens.some((s) => s.state.messages === 0) && waited < 15_000; waited += 100)
        await sleep(100);
      expect(screens.filter((s) => s.state.open && s.state.raised === "10.00")).toHaveLength(SCREENS);
      const after = process.memoryUsage();
      const callsBefore = await upstreamCalls(ctx.sandbox, REPORT_PATH);
      const watchStart = Date.now();
      await sleep(4000);
      const calls = (await upstreamCalls(ctx.sandbox, REPORT_PATH)) - callsBefore;
      const seconds = (Date.now() - watchStart) / 1000;
      // One read per interval at most (+1 for one under way when the count began), whatever the screens.
      expect(calls).toBeLessThanOrEqual(Math.ceil(seconds / INTERVAL_S) + 1);

      await donate(
        ctx.api,
        donationBody(await tokenize(ctx.api), { amount: "15.00", peer_fundraiser_id: "104" }),
      );
      for (let waited = 0; screens.some((s) => s.state.raised !== "25.00") && waited < 10_000; waited += 100)
        await sleep(100);
      expect(screens.filter((s) => s.state.raised === "25.00")).toHaveLength(SCREENS);
      // Each view's board moved with the same message: Dev Patel and his team on top.
      const leaders = new Map(VIEWS.map((view, i) => [view, screens[i]!.state.leader]));
      expect(leaders).toEqual(
        new Map([
          ["", ""],
          ["?of=teams", "Night Owls 15.00"],
          ["?of=fundraisers", "Dev Patel 15.00"],
        ]),
      );
      for (const [i, s] of screens.entries())
        expect(s.state.leader).toBe(leaders.get(VIEWS[i % VIEWS.length]!));

      const heap = after.heapUsed - before.heapUsed;
      const rss = after.rss - before.rss;
      process.stdout.write(
        `live feed: ${SCREENS} connections (both ends in this process): heap +${megabytes(heap)} MB, ` +
          `rss +${megabytes(rss)} MB; ${calls} report reads in ${seconds.toFixed(1)} s at a ${INTERVAL_S} s interval\n`,
      );
      // Both ends of each connection live in this test's process: a bound on the proxy's share.
      expect(heap).toBeLessThan(150 * 1024 * 1024);
    } finally {
      for (const s of screens) s.close();
      await Promise.all(screens.map((s) => s.done));
      agent.destroy();
    }
  });
});
