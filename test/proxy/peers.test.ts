// GET /v1/campaigns/{shortcode}/{keyword}/peers at the size of a real walk: a page of ranked
// matches with a count of the rest, compressed and cacheable, one peer by id, and bad queries.
import { request } from "node:http";
import { brotliDecompressSync } from "node:zlib";
import { describe, expect, it, vi } from "vitest";
import { PeersResponseSchema } from "../../contract/api";
import { peerFixture } from "../helpers/peer-fixture";
import { logLines, upstreamCalls, useStack } from "./support";

const WALKERS = 3000;
const TEAMS = 40;
const { fixture, added } = peerFixture({ fundraisers: WALKERS, teams: TEAMS });
const PATH = "/v1/campaigns/71777/HOPE/peers";
/** The demo's own walkers and teams, beside the added ones. */
const DEMO_PEERS = [
  ...["Ana Ruiz", "Ben Okafor", "Chloe Park", "Dev Patel"].map((name) => ({ name, kind: "fundraiser" })),
  ...["Team Sunrise", "Night Owls", "Trail Mix"].map((name) => ({ name, kind: "team" })),
];

/** Whether every word of `query` starts a word of `name`, as a donor would expect of a search. */
const finds = (name: string, query: string) => {
  const words = name.toLowerCase().split(/[^a-z0-9]+/);
  return query
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .every((part) => words.some((word) => word.startsWith(part)));
};

/** The bytes as they crossed the wire (not decoded), with the answer's headers. */
function raw(url: string, headers: Record<string, string>) {
  return new Promise<{
    status: number;
    headers: Record<string, string | string[] | undefined>;
    body: Buffer;
  }>((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    })
      .on("error", reject)
      .end();
  });
}

describe(`peers of a walk with ${WALKERS} walkers and ${TEAMS} teams`, () => {
  const ctx = useStack({ sandbox: { fixture } });

  it("a search answers the 20 best matches, teams first, and counts the rest; the list is fetched once", async () => {
    const reply = await ctx.api.get(`${PATH}?q=an`);
    expect(reply.status).toBe(200);
    const body = PeersResponseSchema.parse(reply.json);
    const expected = [...added, ...DEMO_PEERS].filter((peer) => finds(peer.name, "an"));
    expect(expected.length).toBeGreaterThan(100);
    expect(body.peers).toHaveLength(20);
    expect(body.more).toBe(expected.length - 20);
    const teams = expected.filter((peer) => peer.kind === "team").length;
    expect(body.peers.slice(0, teams).every((peer) => peer.kind === "team")).toBe(true);
    expect(body.peers.slice(teams).every((peer) => peer.kind === "fundraiser")).toBe(true);
    const names = body.peers.map((peer) => peer.name);
    expect(names.slice(teams)).toEqual(names.slice(teams).toSorted((a, b) => a.localeCompare(b, "en")));
    for (const query of ["ana", "ana r", "kofi", "walkers 3", "zz"]) await ctx.api.get(`${PATH}?q=${query}`);
    expect(await upstreamCalls(ctx.sandbox, "/api/v2/fundraisers")).toBe(1);
    expect(await upstreamCalls(ctx.sandbox, "/api/v2/teams")).toBe(1);
  });

  it("every word of the query starts a word of the name", async () => {
    const reply = await ctx.api.get(`${PATH}?q=${encodeURIComponent("PARK kofi 1")}`);
    const expected = added.filter((peer) => finds(peer.name, "park kofi 1")).map((peer) => peer.name);
    expect(expected.length).toBeGreaterThan(5);
    expect(expected.length).toBeLessThan(20);
    expect(reply.json.peers.map((peer: { name: string }) => peer.name).toSorted()).toEqual(
      expected.toSorted(),
    );
    expect(reply.json.more).toBeUndefined();
  });

  it("is compressed, with an ETag that answers 304, and may be cached a short while", async () => {
    const url = `${ctx.proxy.url}${PATH}?q=a`;
    const first = await raw(url, { "Accept-Encoding": "br, gzip" });
    expect(first.status).toBe(200);
    expect(first.headers["content-encoding"]).toBe("br");
    expect(first.headers.vary).toMatch(/Accept-Encoding/);
    expect(first.headers["cache-control"]).toBe("public, max-age=60");
    expect(first.body.length).toBeLessThan(2000);
    const body = PeersResponseSchema.parse(JSON.parse(brotliDecompressSync(first.body).toString("utf8")));
    expect(body.peers).toHaveLength(20);
    const again = await raw(url, {
      "Accept-Encoding": "br, gzip",
      "If-None-Match": String(first.headers.etag),
    });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    const plain = await raw(url, {});
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(plain.body.toString("utf8"))).toEqual(body);
    expect(plain.headers.etag).not.toBe(first.headers.etag);
  });

  it("?fundraiser= and ?team= look one peer up by id, with its team; an id the campaign lacks finds none", async () => {
    const walker = added.find((peer) => peer.kind === "fundraiser" && peer.team_id !== null)!;
    const one = await ctx.api.get(`${PATH}?fundraiser=${walker.id}`);
    expect(one.status).toBe(200);
    expect(one.json).toEqual({
      peers: [
        {
          id: walker.id,
          name: walker.name,
          kind: "fundraiser",
          team_id: walker.team_id,
          team_name: added.find((peer) => peer.id === walker.team_id)!.name,
          raised: "0.00",
          goal: null,
        },
      ],
    });
    const team = await ctx.api.get(`${PATH}?team=t7`);
    expect(team.json.peers.map((peer: { id: string; kind: string }) => `${peer.kind}:${peer.id}`)).toEqual([
      "team:t7",
    ]);
    // A fundraiser's id asked as a team, or an id nobody has: no one.
    expect((await ctx.api.get(`${PATH}?team=${walker.id}`)).json).toEqual({ peers: [] });
    expect((await ctx.api.get(`${PATH}?fundraiser=w999999`)).json).toEqual({ peers: [] });
  });

  it("bad input: a long query or a bad id is a 400 naming it; markup or spaces find no one; nothing crashes", async () => {
    const long = await ctx.api.get(`${PATH}?q=${"a".repeat(1000)}`);
    expect(long.status).toBe(400);
    expect(long.headers.get("content-type")).toMatch(/application\/problem\+json/);
    expect(long.json).toMatchObject({ code: "validation_failed", errors: { q: [expect.any(String)] } });
    for (const [path, field] of [
      [`${PATH}?fundraiser=${encodeURIComponent("<script>")}`, "fundraiser"],
      [`${PATH}?team=${"9".repeat(65)}`, "team"],
      [`${PATH}?q=ana&fundraiser=w1`, "q"],
    ] as const) {
      const reply = await ctx.api.get(path);
      expect({ path, status: reply.status }).toEqual({ path, status: 400 });
      expect(reply.json.errors).toHaveProperty(field);
    }
    for (const query of ["     ", "<>\"'&", "%00%01", "\u202e\u2028"]) {
      const reply = await ctx.api.get(`${PATH}?q=${encodeURIComponent(query)}`);
      expect({ query, status: reply.status, json: reply.json }).toEqual({
        query,
        status: 200,
        json: { peers: [] },
      });
    }
    const markup = await ctx.api.get(`${PATH}?q=${encodeURIComponent("<img src=x onerror=alert(1)>kofi")}`);
    expect(markup.status).toBe(200);
    expect(markup.json.peers).toEqual([]);
    expect((await ctx.api.get("/v1/health")).status).toBe(200);
  });

  it("with nothing typed: the first 20 (teams first) and how many more", async () => {
    const reply = await ctx.api.get(PATH);
    expect(reply.json.peers).toHaveLength(20);
    expect(reply.json.peers.every((peer: { kind: string }) => peer.kind === "team")).toBe(true);
    // The demo's 3 teams and 4 walkers, and the added ones.
    expect(reply.json.more).toBe(WALKERS + TEAMS + 7 - 20);
  });
});

describe("peers when the upstream goes away after a list was read", () => {
  const ctx = useStack({ sandbox: { fixture }, proxy: { env: { GIVEKIT_PEERS_CACHE_S: "1" } } });

  it("the last list keeps answering, the failed read is logged at warn, and it is not tried on every search", async () => {
    expect((await ctx.api.get(`${PATH}?q=kofi`)).json.peers).toHaveLength(20);
    const sandbox = ctx.sandbox;
    await sandbox.close();
    ctx.sandbox = { ...sandbox, close: async () => undefined };
    await new Promise((resolve) => setTimeout(resolve, 1100));
    for (const query of ["kofi", "lena", "ana", "ben"]) {
      const reply = await ctx.api.get(`${PATH}?q=${query}`);
      expect({ query, status: reply.status }).toEqual({ query, status: 200 });
      expect(reply.json.peers.length).toBeGreaterThan(0);
    }
    await vi.waitFor(() =>
      expect(
        logLines(ctx.proxy).filter((line) => String(line.msg).startsWith("campaign peers: reading")),
      ).toHaveLength(1),
    );
    const [warned] = logLines(ctx.proxy).filter((line) =>
      String(line.msg).startsWith("campaign peers: reading"),
    );
    expect(warned).toMatchObject({ level: 40, campaign: "71777/HOPE" });
  });
});
