/**
 * A sandbox fixture whose Hope Shelter walk (71777/HOPE) has `fundraisers` walkers and `teams`
 * teams besides the demo's own, named from a few first and last names, built in memory at once.
 */
import { readFileSync } from "node:fs";
import { DEMO_FIXTURE_PATH } from "./sandbox";

const FIRST = ["Ana", "Ben", "Chloe", "Dev", "Elif", "Farah", "Goran", "Hana", "Ivan", "Jun", "Kofi", "Lena"];
const LAST = ["Ruiz", "Okafor", "Park", "Patel", "Anders", "Nakamura", "Silva", "Adeyemi", "Berg", "Costa"];

export interface PeerFixtureEntry {
  id: string;
  name: string;
  kind: "fundraiser" | "team";
  team_id: string | null;
}

/** The fixture object for startSandbox, and the added walkers and teams as the proxy should list them. */
export function peerFixture({ fundraisers, teams }: { fundraisers: number; teams: number }) {
  const fixture = JSON.parse(readFileSync(DEMO_FIXTURE_PATH, "utf8")) as {
    accounts: { name: string; fundraisers: object[]; teams: object[] }[];
  };
  const hope = fixture.accounts.find((account) => account.name === "Hope Shelter")!;
  const added: PeerFixtureEntry[] = [];
  for (let t = 0; t < teams; t++) {
    const team = {
      id: `t${t}`,
      name: `${LAST[t % LAST.length]} Walkers ${t}`,
      kind: "team" as const,
      team_id: null,
    };
    added.push(team);
    hope.teams.push({ id: team.id, keyword_id: "kw-hope", name: team.name });
  }
  for (let f = 0; f < fundraisers; f++) {
    const name = `${FIRST[f % FIRST.length]} ${LAST[Math.floor(f / FIRST.length) % LAST.length]} ${f}`;
    const teamId = teams > 0 && f % 3 === 0 ? `t${f % teams}` : null;
    added.push({ id: `w${f}`, name, kind: "fundraiser", team_id: teamId });
    hope.fundraisers.push({ id: `w${f}`, keyword_id: "kw-hope", name, team_id: teamId });
  }
  return { fixture, added };
}
