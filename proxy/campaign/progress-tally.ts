/**
 * What a progress read finds in the report's rows, row by row: each checked against the contract,
 * the campaign's collected gifts kept, summed on either side of a boundary (the base's midnight),
 * with their donors' hashes, what they credit each fundraiser and team, and the newest gifts a
 * wall may show. It runs where the report is read, off the proxy's main thread
 * (progress-worker.ts), so at a million rows no request waits behind it.
 */
import { hash } from "node:crypto";
import { toCents } from "../../contract/money";
import { TransactionRowSchema, type TransactionRow } from "../../contract/upstream";
import { CreditTally, type PeerCredits } from "./leaderboard";
import { wallEntry, type WallEntry } from "./wall";

/** The newest gifts kept per campaign (a wall shows at most this many). */
export const WALL_KEPT = 50;

/** What a read keeps: one campaign's collected rows created at or after `since` (every row when 0). */
export interface TallySpec {
  shortcode: string;
  keyword: string;
  since: number;
  /** Rows created before this go to the `before` sums, the others to `from`. */
  boundary: number;
}

/** A part's sums: the gifts, their cents, and how many had no e-mail (each a donor of its own). */
export interface PartSums {
  cents: number;
  gifts: number;
  anonymous: number;
  /** Distinct donors with an e-mail address. */
  donors: number;
}

/** Donor hashes, sorted by code unit (the store's key order), packed HASH_LENGTH bytes each. */
export interface PackedHashes {
  count: number;
  bytes: Uint8Array;
}

/** What a read found (see TallySpec). */
export interface ReportSums {
  /** Rows of a shape givekit does not know: left out, never guessed at. */
  skipped: number;
  before: PartSums;
  from: PartSums;
  /** The donors of the rows before the boundary. */
  donorsBefore: PackedHashes;
  /** The donors of the rows from the boundary on that none before it has. */
  donorsOnlyFrom: PackedHashes;
  creditsBefore: PeerCredits;
  creditsFrom: PeerCredits;
  /** The newest WALL_KEPT wall entries, newest first. */
  wall: WallEntry[];
}

/** A donor hash's length: 22 base64url characters, one byte each. */
export const HASH_LENGTH = 22;

const emailOf = (row: TransactionRow) =>
  typeof row.email === "string" ? row.email.trim().toLowerCase() : "";

/**
 * A donor's e-mail address as the store keeps it: a hash, never the address. One call, no Hash
 * object per row: a million gifts' hashes cost 0.3 s instead of 0.9-2 s, and less to collect.
 */
export const donorHash = (email: string) =>
  hash("sha256", `givekit-donor:${email}`, "base64url").slice(0, HASH_LENGTH);

/**
 * Sums the collected rows. Donors are told apart by e-mail address; a row without one counts
 * as a donor of its own (the report has no donor id).
 */
export function summarize(rows: readonly TransactionRow[]): { raisedCents: number; donors: number } {
  let raisedCents = 0;
  const emails = new Set<string>();
  let withoutEmail = 0;
  for (const row of rows) {
    if (row.status !== "collected") continue;
    raisedCents += toCents(row.amount);
    const email = emailOf(row);
    if (email) emails.add(email);
    else withoutEmail++;
  }
  return { raisedCents, donors: emails.size + withoutEmail };
}

/** One part of a read: the collected rows' sums and their donors. */
class Tally {
  cents = 0;
  gifts = 0;
  anonymous = 0;
  readonly donors = new Set<string>();
  add(row: TransactionRow): void {
    this.cents += toCents(row.amount);
    this.gifts++;
    const email = emailOf(row);
    if (email) this.donors.add(donorHash(email));
    else this.anonymous++;
  }
  sums(): PartSums {
    return { cents: this.cents, gifts: this.gifts, anonymous: this.anonymous, donors: this.donors.size };
  }
}

/** The newest WALL_KEPT wall entries seen, whatever order they come in. */
export class NewestGifts {
  private entries: WallEntry[] = [];
  private readonly ids = new Set<string>();
  add(entry: WallEntry | null): void {
    if (!entry || this.ids.has(entry.id)) return;
    this.ids.add(entry.id);
    this.entries.push(entry);
    if (this.entries.length >= WALL_KEPT * 4) this.trim();
  }
  private trim(): void {
    this.entries.sort(newestFirst);
    for (const gone of this.entries.splice(WALL_KEPT)) this.ids.delete(gone.id);
  }
  newest(): WallEntry[] {
    this.trim();
    return this.entries;
  }
}

export const timeOf = (entry: WallEntry) => Date.parse(entry.at) || 0;
/** Newest first; the same instant by the upstream's transaction id, the later id first. */
const newestFirst = (a: WallEntry, b: WallEntry) =>
  timeOf(b) - timeOf(a) || b.id.localeCompare(a.id, "en", { numeric: true });

/** Hashes sorted by code unit and packed (ASCII: one byte each). */
function pack(hashes: Iterable<string>): PackedHashes {
  const sorted = Array.from(hashes).toSorted();
  // Never from Buffer's shared pool: these bytes are handed to another thread, not copied.
  const bytes = Buffer.alloc(sorted.length * HASH_LENGTH);
  for (let index = 0; index < sorted.length; index++) {
    bytes.write(sorted[index]!, index * HASH_LENGTH, HASH_LENGTH, "latin1");
  }
  return { count: sorted.length, bytes };
}

/** Hashes `from` to `to` (exclusive) of a packed list. */
export function hashesAt(packed: PackedHashes, from: number, to: number): string[] {
  const bytes = Buffer.from(packed.bytes.buffer, packed.bytes.byteOffset, packed.bytes.byteLength);
  const hashes: string[] = [];
  for (let index = from; index < Math.min(to, packed.count); index++) {
    hashes.push(bytes.toString("latin1", index * HASH_LENGTH, (index + 1) * HASH_LENGTH));
  }
  return hashes;
}

/**
 * @example
 * const tally = createReportTally({ shortcode: "71777", keyword: "HOPE", since: 0, boundary });
 * for (const row of rows) tally.add(row);
 * tally.sums(); // {before: {cents, gifts, …}, from: {…}, donorsBefore, wall, …}
 */
export function createReportTally(spec: TallySpec) {
  const wanted = spec.keyword.toUpperCase();
  const before = new Tally();
  const from = new Tally();
  const creditsBefore = new CreditTally();
  const creditsFrom = new CreditTally();
  const wall = new NewestGifts();
  let skipped = 0;
  return {
    /** One row of the report, as it came (unchecked). */
    add(raw: unknown): void {
      const parsed = TransactionRowSchema.safeParse(raw);
      if (!parsed.success) {
        skipped++;
        return;
      }
      const row = parsed.data;
      if (row.status !== "collected" || row.shortcode !== spec.shortcode) return;
      if (row.keyword.toUpperCase() !== wanted) return;
      const parsedAt = Date.parse(row.created_at);
      // A row with no readable time cannot be placed by day: only a full read counts it.
      if (spec.since > 0 && !(parsedAt >= spec.since)) return;
      const at = Number.isFinite(parsedAt) ? parsedAt : 0;
      (at < spec.boundary ? before : from).add(row);
      (at < spec.boundary ? creditsBefore : creditsFrom).add(row);
      wall.add(wallEntry(row));
    },
    sums(): ReportSums {
      const onlyFrom: string[] = [];
      for (const donor of from.donors) if (!before.donors.has(donor)) onlyFrom.push(donor);
      return {
        skipped,
        before: before.sums(),
        from: from.sums(),
        donorsBefore: pack(before.donors),
        donorsOnlyFrom: pack(onlyFrom),
        creditsBefore: creditsBefore.toJSON(),
        creditsFrom: creditsFrom.toJSON(),
        wall: wall.newest(),
      };
    },
  };
}
