// The dashboard's defence and health counts over real HTTP: what the proxy decided (a challenge
// asked, solved, refused; a card declined at the network; the upstream's answers), as the store
// keeps it (ops_counts rows), next to what the sandbox itself saw.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { PowChallenge } from "../../../contract/api";
import { openSqlite } from "../../../sqlite/open";
import { defencePanel, upstreamHealth } from "../../../proxy/dashboard/figures";
import { DB_FILE } from "../../../proxy/store/sqlite/data-dir";
import type { OpsCount } from "../../../proxy/store/types";
import { solvePow } from "../../helpers/pow-solver";
import {
  CARDS,
  collected,
  donate,
  donationBody,
  formSession,
  postCard,
  tokenize,
  useStack,
  cardFields,
  DECLINES_ENV,
  declineThrice,
} from "../support";

const card = () => cardFields();

function opsRows(dataDir: string): OpsCount[] {
  const db = openSqlite(join(dataDir, DB_FILE), { readonly: true, fileMustExist: true });
  try {
    return db.prepare("SELECT campaign, hour, kind, label, count FROM ops_counts").all() as OpsCount[];
  } finally {
    db.close();
  }
}

/** kind:label → count, summed over campaigns and hours. */
const totals = (rows: readonly OpsCount[]) => {
  const sums: Record<string, number> = {};
  for (const row of rows)
    sums[`${row.kind}:${row.label}`] = (sums[`${row.kind}:${row.label}`] ?? 0) + row.count;
  return sums;
};

/** The counts are written beside the answers, not before them: read once they have settled. */
async function settled(dataDir: string, expected: number): Promise<OpsCount[]> {
  const until = Date.now() + 5000;
  for (;;) {
    const rows = opsRows(dataDir);
    const all = rows.reduce((sum, row) => sum + row.count, 0);
    if (all >= expected || Date.now() > until) return rows;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe("the defence panel's counts", () => {
  // Three declines make an address's cards watched (a challenge); the wider alarms stay quiet.
  const ctx = useStack({
    proxy: { env: DECLINES_ENV },
  });

  it("counts declines at the network, the challenge asked and solved with its solve time, refusals by reason, the upstream's answers; nothing of a person", async () => {
    const stockpiled = await tokenize(ctx.api);
    await declineThrice(ctx.api);
    expect((await donate(ctx.api, donationBody(stockpiled))).json.code).toBe("card_check_required");
    const session = await formSession(ctx.api);
    const asked = await postCard(ctx.api, { ...card(), form_session: session });
    expect(asked.json.code).toBe("challenge_required");
    const proof = await solvePow(asked.json.challenge as PowChallenge);
    const minted = await postCard(ctx.api, { ...card(), form_session: session, challenge_token: proof });
    expect(minted.status).toBe(201);
    expect((await donate(ctx.api, donationBody(String(minted.json.token)))).status).toBe(200);
    const replayed = await postCard(ctx.api, { ...card(), form_session: session, challenge_token: proof });
    expect(replayed.json.code).toBe("challenge_failed");
    expect(await collected(ctx.sandbox)).toHaveLength(1);

    // 3 declined + 1 card check + 1 asked + 1 solved (and its time) + 1 refused, and the
    // upstream: 5 tokenizations and 4 donates, each with its time.
    const rows = await settled(ctx.proxy.dataDir, 3 + 1 + 1 + 2 + 1 + 2 * 9);
    const sums = totals(rows);
    expect(sums).toMatchObject({
      "declined:": 3,
      "refused:card_check_required": 1,
      "challenge_asked:": 1,
      "challenge_solved:": 1,
      "refused:challenge_failed": 1,
      "upstream:createPaymentToken:answered": 5,
      "upstream:donate:answered": 4,
    });
    // The declines and the card check are the campaign's own.
    expect(rows.filter((r) => r.kind === "declined").every((r) => r.campaign === "71777/HOPE")).toBe(true);
    const solveBuckets = rows.filter((r) => r.kind === "solve_ms");
    expect(solveBuckets.reduce((sum, r) => sum + r.count, 0)).toBe(1);
    const upstreamTimes = rows.filter((r) => r.kind === "upstream_ms").reduce((sum, r) => sum + r.count, 0);
    expect(upstreamTimes).toBe(9);

    // The panel reads them: the solve time donors paid is there, and the declines per hour.
    const hour = rows[0]!.hour;
    const panel = defencePanel({
      counts: rows,
      hours: { fromHour: hour, toHour: hour },
      defence: [],
      now: Date.now(),
    });
    expect(panel.challengesAsked).toBe(1);
    expect(panel.challengesSolved).toBe(1);
    expect(panel.solveMs.p50).toBe(Number(solveBuckets[0]!.label));
    expect(panel.declined).toBe(3);
    expect(panel.perHour).toEqual([
      { hour: new Date(hour * 3_600_000).toISOString(), asked: 1, solved: 1, refused: 2, declined: 3 },
    ]);
    const upstream = upstreamHealth(rows, { fromHour: hour, toHour: hour });
    expect(upstream.perHour[0]!.answers).toEqual({ answered: 9 });
    expect(upstream.latencyMs.p95).not.toBeNull();

    // Nothing of a person: no e-mail, address, card or session in any row.
    const text = JSON.stringify(rows);
    for (const personal of ["@", "127.0.0.1", CARDS.ok, CARDS.declined, session])
      expect(text).not.toContain(personal);
  });
});
