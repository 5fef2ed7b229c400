// Gala night's feeds (…/wall, …/leaderboard, …/live) against the sandbox's own report.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { fromCents, toCents } from "../../contract/money";
import { testDatabase } from "../helpers/postgres";
import { startProxy } from "../helpers/proxy";
import { startSandbox } from "../helpers/sandbox";
import { client, collected, donate, donationBody, tokenize, upstreamCalls, useStack } from "./support";

const REPORT_PATH = "/api/v2/reports/transactions.json";
const base = "/v1/campaigns/71777/HOPE";

/** Reads server-sent events from the proxy; `next()` gives the next `figures` message's data. */
async function openLive(url: string) {
  const controller = new AbortController();
  const res = await fetch(url, { signal: controller.signal, headers: { Accept: "text/event-stream" } });
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  return {
    res,
    async next(timeoutMs = 10_000): Promise<Record<string, unknown>> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const end = buffer.indexOf("\n\n");
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block.split("\n").find((line) => line.startsWith("data: "));
          if (block.includes("event: figures") && data)
            return JSON.parse(data.slice(6)) as Record<string, unknown>;
          continue;
        }
        if (Date.now() > deadline) throw new Error("no live message in time");
        const { value, done } = await reader.read();
        if (done) throw new Error("the stream ended");
        buffer += value;
      }
    },
    close: () => controller.abort(),
  };
}

describe("the wall, the leaderboard and the live feed", () => {
  const ctx = useStack({ proxy: { env: { GIVEKIT_PROGRESS_CACHE_S: "1" } } });

  it("shows the newest wall gifts only, the anonymous one unnamed, no contact detail; the totals are the report's", async () => {
    const gifts = [
      {
        amount: "25.00",
        pledge_wall: true,
        donor: { first_name: "Ana", last_name: "García", email: "ana.wall@example.org", phone: "2025550143" },
        memo: "In memory of Rosa",
      },
      {
        amount: "40.00",
        pledge_wall: true,
        anonymous: true,
        donor: { first_name: "Secret", last_name: "Person", email: "secret@example.org" },
      },
      { amount: "15.00", donor: { first_name: "Off", last_name: "Wall", email: "off@example.org" } },
    ];
    for (const fields of gifts) {
      const reply = await donate(ctx.api, donationBody(await tokenize(ctx.api), fields));
      expect(reply.status).toBe(200);
    }
    const wall = await ctx.api.get(`${base}/wall`);
    expect(wall.status).toBe(200);
    expect(
      wall.json.entries.map((entry: { name: string; amount: string }) => [entry.name, entry.amount]),
    ).toEqual([
      ["Anonymous", "40.00"],
      ["Ana G.", "25.00"],
    ]);
    for (const secret of ["Secret", "Person", "@example.org", "2025550143", "Rosa", "Off", "García"]) {
      expect(wall.text).not.toContain(secret);
    }
    expect(wall.headers.get("cache-control")).toBe("public, max-age=5");

    const rows = await collected(ctx.sandbox, "HOPE");
    const progress = await ctx.api.get(`${base}/progress`);
    expect(progress.json.raised).toBe(fromCents(rows.reduce((sum, row) => sum + toCents(row.amount), 0)));

    const brotli = await fetch(`${ctx.proxy.url}${base}/wall?limit=1`, {
      headers: { "Accept-Encoding": "br" },
    });
    expect(brotli.headers.get("content-encoding")).toBe("br");
    expect(((await brotli.json()) as { entries: unknown[] }).entries).toHaveLength(1);
  });

  it("ranks fundraisers and teams by what the sandbox's report credits them, most first", async () => {
    const gifts = [
      { amount: "30.00", peer_fundraiser_id: "101" },
      { amount: "55.00", peer_fundraiser_id: "104" },
      { amount: "10.00", peer_fundraiser_id: "101" },
      { amount: "5.00", peer_fundraiser_id: "103" },
    ];
    for (const fields of gifts) await donate(ctx.api, donationBody(await tokenize(ctx.api), fields));
    const rows = await collected(ctx.sandbox, "HOPE");
    const sums = (key: "peer_fundraiser_id" | "peer_fundraiser_team_id") => {
      const by = new Map<string, number>();
      for (const row of rows) {
        const id = row[key];
        if (id) by.set(id, (by.get(id) ?? 0) + toCents(row.donation_amount));
      }
      return [...by].toSorted((a, b) => b[1] - a[1]).map(([id, cents]) => [id, fromCents(cents)]);
    };

    const fundraisers = await ctx.api.get(`${base}/leaderboard?of=fundraisers&limit=3`);
    expect(fundraisers.status).toBe(200);
    expect(
      fundraisers.json.leaders.map((peer: { id: string; raised: string }) => [peer.id, peer.raised]),
    ).toEqual(sums("peer_fundraiser_id").slice(0, 3));
    const teams = await ctx.api.get(`${base}/leaderboard?of=teams`);
    const ranked = teams.json.leaders.map((peer: { id: string; raised: string }) => [peer.id, peer.raised]);
    expect(ranked.filter(([, raised]: string[]) => raised !== "0.00")).toEqual(
      sums("peer_fundraiser_team_id"),
    );
    // And the sandbox's own peer records agree, to the cent, for every peer the leaderboard shows.
    for (const [kind, board] of [
      ["fundraisers", fundraisers],
      ["teams", teams],
    ] as const) {
      const totals = await ctx.sandbox.peerTotals(kind);
      for (const peer of board.json.leaders as { id: string; raised: string }[])
        expect([peer.id, peer.raised]).toEqual([peer.id, totals.get(peer.id)]);
    }
  });

  it("shows texted gifts beside the form's within the interval, with the peer each credits by name", async () => {
    await donate(
      ctx.api,
      donationBody(await tokenize(ctx.api), {
        amount: "30.00",
        pledge_wall: true,
        peer_fundraiser_id: "101",
      }),
    );
    expect((await ctx.api.get(`${base}/wall`)).json.entries).toHaveLength(1);
    const texted = await fetch(`${ctx.sandbox.url}/_sandbox/text-gifts`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        shortcode: "71777",
        keyword: "HOPE",
        amount: "10.00",
        phone: "2025550143",
        first_name: "Tomás",
        last_name: "reyes",
        pledge_wall: true,
        peer_fundraiser_team_id: "12",
      }),
    });
    expect(texted.status).toBe(201);
    let entries: { name: string; amount: string; credited: string | null }[] = [];
    for (let waited = 0; entries.length < 2 && waited < 4000; waited += 250) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      entries = (await ctx.api.get(`${base}/wall`, { "Cache-Control": "no-cache" })).json.entries;
    }
    expect(entries.map((entry) => [entry.name, entry.amount, entry.credited])).toEqual([
      ["Tomás R.", "10.00", "Night Owls"],
      ["Ana D.", "30.00", "Ana Ruiz"],
    ]);
    const rows = await collected(ctx.sandbox, "HOPE");
    const progress = await ctx.api.get(`${base}/progress`);
    expect(progress.json.raised).toBe(fromCents(rows.reduce((sum, row) => sum + toCents(row.amount), 0)));
  });

  it("refuses a bad limit, a bad kind and a campaign not served, with problems naming them", async () => {
    const limit = await ctx.api.get(`${base}/wall?limit=0`);
    expect([limit.status, limit.json.code, Object.keys(limit.json.errors)]).toEqual([
      400,
      "validation_failed",
      ["limit"],
    ]);
    const many = await ctx.api.get(`${base}/wall?limit=5000`);
    expect(many.status).toBe(400);
    const kind = await ctx.api.get(`${base}/leaderboard?of=donors`);
    expect([kind.status, Object.keys(kind.json.errors)]).toEqual([400, ["of"]]);
    const other = await ctx.api.get("/v1/campaigns/71777/NOPE/live");
    expect([other.status, other.json.code]).toEqual([404, "campaign_not_served"]);
    expect(await upstreamCalls(ctx.sandbox, REPORT_PATH)).toBe(0);
  });

  it("pushes a gift given through this proxy to a connected screen at once", async () => {
    await donate(ctx.api, donationBody(await tokenize(ctx.api), { amount: "20.00", pledge_wall: true }));
    const live = await openLive(`${ctx.proxy.url}${base}/live`);
    try {
      expect(live.res.headers.get("content-type")).toContain("text/event-stream");
      const first = await live.next();
      expect(first).toMatchObject({ progress: { raised: "20.00", donors: 1 }, stale: false });
      const given = Date.now();
      await donate(
        ctx.api,
        donationBody(await tokenize(ctx.api), {
          amount: "35.00",
          pledge_wall: true,
          donor: { first_name: "Bea", last_name: "Lund", email: "bea@example.org" },
        }),
      );
      let message = await live.next();
      while ((message.progress as { raised: string }).raised !== "55.00") message = await live.next();
      expect(Date.now() - given).toBeLessThan(5000);
      expect((message.wall as { name: string }[])[0]!.name).toBe("Bea L.");
    } finally {
      live.close();
    }
  });
});

/** The credited peers of a live message's leaderboard. */
const leadersOf = (message: Record<string, unknown>) =>
  (message.leaders as { id: string; raised: string }[]).filter((peer) => peer.raised !== "0.00");

describe("the leaderboard on the live feed", () => {
  const ctx = useStack({ proxy: { env: { GIVEKIT_PROGRESS_CACHE_S: "1" } } });

  it("moves with the same read as the figures: a gift crediting a fundraiser is on a connected board at once", async () => {
    await donate(
      ctx.api,
      donationBody(await tokenize(ctx.api), { amount: "15.00", peer_fundraiser_id: "101" }),
    );
    const fundraisers = await openLive(`${ctx.proxy.url}${base}/live?of=fundraisers`);
    const plain = await openLive(`${ctx.proxy.url}${base}/live`);
    try {
      expect(leadersOf(await fundraisers.next())).toEqual([
        expect.objectContaining({ id: "101", raised: "15.00" }),
      ]);
      expect((await plain.next()).leaders).toBeUndefined();

      const peerListReads = await upstreamCalls(ctx.sandbox, "/api/v2/fundraisers");
      const given = Date.now();
      await donate(
        ctx.api,
        donationBody(await tokenize(ctx.api), { amount: "40.00", peer_fundraiser_id: "104" }),
      );
      let message = await fundraisers.next();
      while ((message.progress as { raised: string }).raised !== "55.00") message = await fundraisers.next();
      expect(Date.now() - given).toBeLessThan(5000);
      // The board came with the figures' own read: nobody asked the upstream for the peer lists' totals.
      expect(await upstreamCalls(ctx.sandbox, "/api/v2/fundraisers")).toBe(peerListReads);
      const totals = await ctx.sandbox.peerTotals("fundraisers");
      expect(totals.get("104")).toBe("40.00");
      expect(leadersOf(message).map((peer) => [peer.id, peer.raised])).toEqual([
        ["104", totals.get("104")],
        ["101", totals.get("101")],
      ]);
    } finally {
      fundraisers.close();
      plain.close();
    }
  });

  it("refuses a live feed of a kind there is no leaderboard of", async () => {
    const res = await ctx.api.get(`${base}/live?of=donors`);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ code: "validation_failed", errors: { of: [expect.any(String)] } });
  });
});

describe("the live feed from a nonprofit's own site", () => {
  const ctx = useStack({
    proxy: { allowedOrigins: ["https://shelter.example"], env: { GIVEKIT_PROGRESS_CACHE_S: "1" } },
  });

  it("answers an allowed origin's EventSource with CORS, and no other origin's", async () => {
    await donate(ctx.api, donationBody(await tokenize(ctx.api), { amount: "5.00" }));
    for (const [origin, allowed] of [
      ["https://shelter.example", "https://shelter.example"],
      ["https://elsewhere.example", null],
    ] as const) {
      const controller = new AbortController();
      const res = await fetch(`${ctx.proxy.url}${base}/live`, {
        headers: { Origin: origin, Accept: "text/event-stream" },
        signal: controller.signal,
      });
      expect([res.status, res.headers.get("access-control-allow-origin")]).toEqual([200, allowed]);
      controller.abort();
    }
  });
});

describe("the wall on two proxies sharing one PostgreSQL", () => {
  it("a gift through one proxy is on the other's wall and live feed; the report read once per interval between them", async () => {
    const sandbox = await startSandbox();
    const env = {
      DATABASE_URL: await testDatabase(),
      GIVEKIT_SIGNING_SECRET: randomBytes(32).toString("hex"),
      GIVEKIT_PROGRESS_CACHE_S: "2",
    };
    const a = await startProxy({ upstreamUrl: sandbox.url, env });
    const b = await startProxy({ upstreamUrl: sandbox.url, env });
    try {
      const apiA = client(a.url);
      const apiB = client(b.url);
      expect((await apiB.get(`${base}/wall`)).json.entries).toEqual([]);
      const live = await openLive(`${b.url}${base}/live`);
      await live.next();
      await donate(
        apiA,
        donationBody(await tokenize(apiA), {
          amount: "45.00",
          pledge_wall: true,
          donor: { first_name: "Iris", last_name: "Vale", email: "iris@example.org" },
        }),
      );
      let message = await live.next();
      while ((message.wall as unknown[]).length === 0) message = await live.next();
      live.close();
      expect((message.wall as { name: string }[]).map((entry) => entry.name)).toEqual(["Iris V."]);
      expect((await apiB.get(`${base}/wall`, { "Cache-Control": "no-cache" })).json.entries[0].name).toBe(
        "Iris V.",
      );
      const calls = await upstreamCalls(sandbox, REPORT_PATH);
      const started = Date.now();
      await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          (i % 2 ? apiA : apiB).get(`${base}/wall`, { "Cache-Control": "no-cache" }),
        ),
      );
      await new Promise((resolve) => setTimeout(resolve, 2500));
      const seconds = (Date.now() - started) / 1000;
      expect((await upstreamCalls(sandbox, REPORT_PATH)) - calls).toBeLessThanOrEqual(
        Math.ceil(seconds / 2) + 1,
      );
    } finally {
      await a.close();
      await b.close();
      await sandbox.close();
    }
  });
});
