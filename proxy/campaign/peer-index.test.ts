import { describe, expect, it } from "vitest";
import type { Peer } from "../../contract/api";
import { createPeerIndex, PEER_PAGE, searchWords } from "./peer-index";

const peer = (id: string, name: string, kind: Peer["kind"] = "fundraiser"): Peer => ({
  id,
  name,
  kind,
  team_id: null,
  team_name: null,
  raised: null,
  goal: null,
});

const names = (rows: string[]) => rows.map((row) => (JSON.parse(row) as Peer).name);

describe("the peer search index", () => {
  const index = createPeerIndex([
    peer("1", "Ana Ruiz"),
    peer("2", "Ben Okafor"),
    peer("3", "José Anaya"),
    peer("4", "Chloe Park"),
    peer("11", "Team Sunrise", "team"),
    peer("12", "Anaheim Runners", "team"),
    peer("5", "Zoë Andersen-Ng"),
  ]);

  it("finds a prefix of any word of a name, teams first, then by name", () => {
    expect(names(index.search("an").rows)).toEqual([
      "Anaheim Runners",
      "Ana Ruiz",
      "José Anaya",
      "Zoë Andersen-Ng",
    ]);
    expect(names(index.search("OKA").rows)).toEqual(["Ben Okafor"]);
    // Only the start of a word: "uiz" is inside "Ruiz", not a prefix.
    expect(index.search("uiz").rows).toEqual([]);
  });

  it("wants every word of the query, ignores case and accents, and counts a name once", () => {
    expect(names(index.search("ana ru").rows)).toEqual(["Anaheim Runners", "Ana Ruiz"]);
    expect(names(index.search("ana rui").rows)).toEqual(["Ana Ruiz"]);
    expect(names(index.search("jose").rows)).toEqual(["José Anaya"]);
    expect(names(index.search("zoe ng").rows)).toEqual(["Zoë Andersen-Ng"]);
    // "Anaheim Runners" has "an" twice over in its words; it is one match.
    expect(index.search("r an")).toEqual({ rows: expect.any(Array), more: 0 });
    expect(names(index.search("r an").rows)).toEqual(["Anaheim Runners", "Ana Ruiz"]);
  });

  it("finds no one for a query without a letter or digit, and treats markup as separators", () => {
    expect(index.search("   ")).toEqual({ rows: [], more: 0 });
    expect(index.search("<>&\"'")).toEqual({ rows: [], more: 0 });
    expect(names(index.search("<chloe/>").rows)).toEqual(["Chloe Park"]);
    // "b" starts no word here, so the tag's letters leave nothing found.
    expect(index.search("<b>chloe</b>").rows).toEqual([]);
  });

  it("looks one peer up by kind and id", () => {
    expect(JSON.parse(index.byId("fundraiser", "3")!)).toMatchObject({ name: "José Anaya" });
    expect(index.byId("team", "3")).toBeNull();
    expect(index.byId("fundraiser", "99")).toBeNull();
  });

  it(`answers at most ${PEER_PAGE}, the best ranked, with a count of the rest`, () => {
    const many = Array.from({ length: 500 }, (_, i) =>
      peer(String(i), `Walker ${String(499 - i).padStart(3, "0")}`),
    );
    const big = createPeerIndex([...many, peer("t1", "Walkers United", "team")]);
    const found = big.search("walk");
    expect(found.rows).toHaveLength(PEER_PAGE);
    expect(found.more).toBe(501 - PEER_PAGE);
    expect(names(found.rows)).toEqual([
      "Walkers United",
      ...Array.from({ length: PEER_PAGE - 1 }, (_, i) => `Walker ${String(i).padStart(3, "0")}`),
    ]);
    expect(names(big.search("walker 49").rows)).toEqual(
      Array.from({ length: 10 }, (_, i) => `Walker ${490 + i}`),
    );
    expect(big.first().rows).toHaveLength(PEER_PAGE);
    expect(big.first().more).toBe(501 - PEER_PAGE);
  });

  it("splits names and queries into words the same way", () => {
    expect(searchWords("  Zoë  O'Brien-Smith ")).toEqual(["zoe", "o", "brien", "smith"]);
  });
});
