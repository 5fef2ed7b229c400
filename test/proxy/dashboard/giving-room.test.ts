// The giving panel's figures "as the room display shows them" come from the display's own feed
// (proxy/campaign/gala-feed.ts), not a second computation: whatever the feed says is what the
// dashboard says, one campaign or all; a campaign whose feed has no figures yet (a cold first
// read) does not hold the view past ROOM_WAIT_MS; a failing read is shown as the last good
// figures. (e2e/form-funnel.spec.ts checks them against the sandbox's own report.)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Campaign, Progress } from "../../../contract/api";
import type { DashboardData } from "../../../contract/dashboard";
import { createCampaignDirectory, campaignScope } from "../../../proxy/campaign/directory";
import type { GalaFigures } from "../../../proxy/campaign/gala-feed";
import { loadConfig } from "../../../proxy/config";
import { dashboardPages, ROOM_WAIT_MS } from "../../../proxy/dashboard/pages";
import { openSqliteStore } from "../../../proxy/store/sqlite";
import type { Store } from "../../../proxy/store/types";

const config = loadConfig({
  UPSTREAM_BASE_URL: "http://127.0.0.1:9",
  UPSTREAM_PRIVATE_TOKEN: "room-test-private",
  UPSTREAM_PUBLIC_TOKEN: "room-test-public",
});
const campaigns = createCampaignDirectory(config.campaigns);
const [hope, meals] = config.campaigns as [Campaign, Campaign];

const dirs: string[] = [];
const stores: Store[] = [];
afterAll(async () => {
  for (const store of stores) await store.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function freshStore(): Store {
  const dir = mkdtempSync(join(tmpdir(), "givekit-room-"));
  dirs.push(dir);
  const opened = openSqliteStore({ dataDir: dir, retentionH: 24, leaseMs: 20_000 });
  stores.push(opened);
  return opened;
}

const progress = (raised: string, donors: number): Progress => ({
  raised,
  goal: "25000.00",
  donors,
  currency: "USD",
  updated_at: "2026-11-29T08:00:00.000Z",
});

/** A feed answering each campaign as `answers` says: figures, a failure, or never (a cold read). */
function feed(answers: Record<string, Progress | "failed" | "stale" | "never">) {
  const asked: string[] = [];
  return {
    asked,
    async live(campaign: Campaign): Promise<GalaFigures> {
      const scope = campaignScope(campaign);
      asked.push(scope);
      const answer = answers[scope];
      if (answer === "never") return new Promise<GalaFigures>(() => undefined);
      if (answer === "failed" || answer === undefined) throw new Error("the report cannot be read");
      const figures = answer === "stale" ? progress("10.00", 1) : answer;
      return { progress: figures, wall: [], leaders: () => [], read_at: 1, failing: answer === "stale" };
    },
  };
}

async function data(pages: ReturnType<typeof dashboardPages>, query: string): Promise<DashboardData> {
  const answer = await pages.request(`/data.json?${query}`);
  expect(answer.status).toBe(200);
  return (await answer.json()) as DashboardData;
}

const pagesWith = (answers: Parameters<typeof feed>[0]) => {
  const made = feed(answers);
  const pages = dashboardPages({
    store: freshStore(),
    campaigns,
    feed: made,
    widgetDir: config.widgetDir,
    liveS: 5,
    draining: () => false,
  });
  return { pages, asked: made.asked };
};

describe("the giving panel's room figures", () => {
  it("are the feed's, campaign by campaign; one campaign's view asks the feed for that one only", async () => {
    const hopeFigures = progress("18240.00", 412);
    const mealsFigures = progress("950.50", 12);
    const { pages, asked } = pagesWith({
      [campaignScope(hope)]: hopeFigures,
      [campaignScope(meals)]: mealsFigures,
    });
    const all = await data(pages, "period=today");
    expect(all.giving.room).toEqual([
      { campaign: campaignScope(hope), progress: hopeFigures, failing: false },
      { campaign: campaignScope(meals), progress: mealsFigures, failing: false },
    ]);
    asked.length = 0;
    const one = await data(pages, `period=7d&campaign=${encodeURIComponent(campaignScope(meals))}`);
    expect(one.giving.room).toEqual([
      { campaign: campaignScope(meals), progress: mealsFigures, failing: false },
    ]);
    expect(asked).toEqual([campaignScope(meals)]);
    // The CSV of the same table.
    const csv = await (await pages.request("/room.csv?period=today")).text();
    expect(csv.split("\r\n")[1]).toBe(
      `${campaignScope(hope)},18240.00,25000.00,412,USD,2026-11-29T08:00:00.000Z,false`,
    );
  });

  it("a cold feed does not hold the view past ROOM_WAIT_MS; a failed or stale read says so", async () => {
    const { pages } = pagesWith({ [campaignScope(hope)]: "never", [campaignScope(meals)]: "failed" });
    const began = performance.now();
    const cold = await data(pages, "period=today");
    // Generous: the bound is the wait itself, whatever the machine's load adds.
    expect(performance.now() - began).toBeLessThan(ROOM_WAIT_MS + 4000);
    expect(cold.giving.room).toEqual([
      { campaign: campaignScope(hope), progress: null, failing: false },
      { campaign: campaignScope(meals), progress: null, failing: true },
    ]);
    const stale = await data(pagesWith({ [campaignScope(hope)]: "stale" }).pages, "period=today");
    expect(stale.giving.room[0]).toEqual({
      campaign: campaignScope(hope),
      progress: progress("10.00", 1),
      failing: true,
    });
  });
});
