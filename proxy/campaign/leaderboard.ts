/**
 * The leaderboard's one rule: what each fundraiser and team has raised is summed from the same
 * report read as the progress figures and the wall (collected gifts, fees excluded, by the
 * fundraiser and the team each row credits), so one read per interval feeds all three and a
 * leaderboard adds up with the thermometer beside it. The peer lists give only who the peers are
 * (public name, team, goal) and which may be shown (no root page, no hidden captain).
 */
import type { Peer } from "../../contract/api";
import { LEADERBOARD_LIMIT_MAX } from "../../contract/gala";
import { fromCents, toCents } from "../../contract/money";
import { isAmount } from "../../contract/patterns";
import type { TransactionRow } from "../../contract/upstream";
import type { PeerIndex } from "./peer-index";

/** Cents credited to each fundraiser and each team, by id: a read's sums as the store keeps them. */
export interface PeerCredits {
  fundraiser: Record<string, number>;
  team: Record<string, number>;
}

/** One part of a read's sums per peer; collected rows only (the caller's read keeps no other). */
export class CreditTally {
  readonly fundraiser = new Map<string, number>();
  readonly team = new Map<string, number>();

  add(row: Pick<TransactionRow, "donation_amount" | "peer_fundraiser_id" | "peer_fundraiser_team_id">): void {
    if (!row.peer_fundraiser_id && !row.peer_fundraiser_team_id) return;
    // The report's rows are loose: an amount that is not one credits nothing rather than stop the read.
    const cents = isAmount(row.donation_amount) ? toCents(row.donation_amount) : 0;
    if (row.peer_fundraiser_id) bump(this.fundraiser, row.peer_fundraiser_id, cents);
    if (row.peer_fundraiser_team_id) bump(this.team, row.peer_fundraiser_team_id, cents);
  }

  /** Another part's sums (a stored base) folded into this one. */
  addAll(credits: PeerCredits): this {
    for (const [id, cents] of Object.entries(credits.fundraiser)) bump(this.fundraiser, id, cents);
    for (const [id, cents] of Object.entries(credits.team)) bump(this.team, id, cents);
    return this;
  }

  toJSON(): PeerCredits {
    return { fundraiser: Object.fromEntries(this.fundraiser), team: Object.fromEntries(this.team) };
  }
}

function bump(sums: Map<string, number>, id: string, cents: number) {
  sums.set(id, (sums.get(id) ?? 0) + cents);
}

/**
 * The first LEADERBOARD_LIMIT_MAX peers of a kind by what the report credits them, most first;
 * the same sum by the lists' order (name). A peer the lists do not show (the root page, a hidden
 * captain, one added since the lists were read) is left out.
 */
export function rankLeaders(index: PeerIndex, credits: PeerCredits, kind: Peer["kind"]): Peer[] {
  const sums = credits[kind];
  const credited: { peer: Peer; cents: number; position: number }[] = [];
  for (const [id, cents] of Object.entries(sums)) {
    const found = index.positionOf(kind, id);
    if (found === null || cents <= 0) continue;
    credited.push({ peer: JSON.parse(found.row) as Peer, cents, position: found.position });
  }
  credited.sort((a, b) => b.cents - a.cents || a.position - b.position);
  const leaders = credited.slice(0, LEADERBOARD_LIMIT_MAX).map(({ peer, cents }) => ({
    ...peer,
    raised: fromCents(cents),
  }));
  // Fewer credited than a leaderboard may show: the others follow at zero, in the lists' order.
  for (const row of index.ofKind(kind)) {
    if (leaders.length >= LEADERBOARD_LIMIT_MAX) break;
    const peer = JSON.parse(row) as Peer;
    if (!((sums[peer.id] ?? 0) > 0)) leaders.push({ ...peer, raised: "0.00" });
  }
  return leaders;
}
