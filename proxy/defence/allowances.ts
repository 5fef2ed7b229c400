/**
 * Venues the operator lets through the circuit breakers for an event (`givekit defence allow
 * <address or range> --for 6h`, or the dashboard's "Let this network through"): a note in the
 * store's shared notes for that long, read by every proxy on the store (each looks again every
 * ALLOWANCE_REFRESH_MS and logs one it has not seen). A client in an allowed range passes its own (client's) open breaker and
 * spends none of its budgets; its BIN's and campaign's breakers, and the rest of the defence,
 * still hold for it.
 */
import { BlockList, isIP } from "node:net";
import type { Logger } from "pino";
import type { SharedNotes } from "../store";

/** Where allowances are noted (the store's notes: key, JSON, expiry). */
export const ALLOWANCE_PREFIX = "breaker-allow:";
/** How often a proxy reads the allowances again. */
export const ALLOWANCE_REFRESH_MS = 10_000;
/** The longest an allowance may last: an event, not a standing exception. */
const LONGEST_MS = 7 * 24 * 3600 * 1000;

/** A malformed range or duration, said in words naming it; nothing was changed. */
export class AllowanceInputError extends Error {
  override name = "AllowanceInputError";
}

/** What an allowance note holds. */
export interface Allowance {
  range: string;
  since: number;
  until: number;
  /** Who let it through: the dashboard invite's name; absent for the command line's. */
  by?: string;
}

/**
 * An address or a CIDR range, checked and written in one way (`203.0.113.7/32`, `2001:db8::/48`).
 *
 * @example
 * parseRange("203.0.113.0/24"); // { address: "203.0.113.0", prefix: 24, family: "ipv4", text: "203.0.113.0/24" }
 */
export function parseRange(text: string) {
  const match = /^([0-9A-Fa-f:.]+)(?:\/(\d{1,3}))?$/.exec(text.trim());
  const version = match ? isIP(match[1]!) : 0;
  if (!match || version === 0)
    throw new AllowanceInputError(
      `"${text}" is not an address or a range: give an IPv4 or IPv6 address, or one with a /prefix (203.0.113.0/24)`,
    );
  const most = version === 4 ? 32 : 128;
  const prefix = match[2] === undefined ? most : Number(match[2]);
  if (prefix > most || (version === 4 && prefix < 8) || (version === 6 && prefix < 32))
    throw new AllowanceInputError(
      `"${text}": the prefix must be ${version === 4 ? "8 to 32" : "32 to 128"} (a venue, not the internet)`,
    );
  const family = version === 4 ? ("ipv4" as const) : ("ipv6" as const);
  return { address: match[1]!, prefix, family, text: `${match[1]!.toLowerCase()}/${prefix}` };
}

/**
 * A duration such as `90m`, `6h` or `2d`, in ms: at least a minute, at most seven days.
 *
 * @example
 * parseDuration("6h"); // 21_600_000
 */
export function parseDuration(text: string): number {
  const match = /^(\d{1,4})(m|h|d)$/.exec(text.trim());
  const ms = match ? Number(match[1]) * { m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] as "m"] : 0;
  if (!match || ms < 60_000 || ms > LONGEST_MS)
    throw new AllowanceInputError(
      `--for "${text}" is not a duration of a minute to 7 days: give minutes, hours or days (90m, 6h, 2d)`,
    );
  return ms;
}

/** Notes an allowance for `forMs` from now (`by`: who, for the log); resolves with what was noted. */
export async function allowRange(
  notes: SharedNotes,
  range: string,
  forMs: number,
  by?: string,
): Promise<Allowance> {
  const parsed = parseRange(range);
  const since = Date.now();
  const allowance: Allowance = { range: parsed.text, since, until: since + forMs, ...(by ? { by } : {}) };
  await notes.remember(`${ALLOWANCE_PREFIX}${parsed.text}`, JSON.stringify(allowance), forMs);
  return allowance;
}

/** Ends a range's allowance now (a note cannot be deleted: an empty one for a moment reads as none). */
export async function endAllowance(notes: SharedNotes, range: string): Promise<void> {
  await notes.remember(`${ALLOWANCE_PREFIX}${parseRange(range).text}`, "", 1);
}

/** The allowances living now. */
export async function currentAllowances(notes: SharedNotes): Promise<Allowance[]> {
  const living = await notes.notesUnder(ALLOWANCE_PREFIX);
  return living.flatMap((note) => {
    try {
      return [JSON.parse(note.value) as Allowance];
    } catch {
      return [];
    }
  });
}

/** The living allowance whose range holds this address, or null. */
export function allowanceOf(allowances: readonly Allowance[], ip: string): Allowance | null {
  const version = isIP(ip);
  if (version === 0) return null;
  const family = version === 4 ? "ipv4" : "ipv6";
  return (
    allowances.find((each) => {
      const range = parseRange(each.range);
      if (range.family !== family) return false;
      const one = new BlockList();
      one.addSubnet(range.address, range.prefix, range.family);
      return one.check(ip, family);
    }) ?? null
  );
}

/**
 * @example
 * const allowed = createAllowances(counters, logger);
 * await allowed.has("203.0.113.7"); // true while 203.0.113.0/24 is allowed
 */
export function createAllowances(notes: SharedNotes, logger: Logger) {
  let list = new BlockList();
  let readAt = 0;
  let seen = new Set<string>();
  let reading: Promise<void> | null = null;

  async function refresh(): Promise<void> {
    const now = Date.now();
    const allowances = (await currentAllowances(notes).catch(() => [])).filter((each) => each.until > now);
    const next = new BlockList();
    const keys = new Set<string>();
    for (const each of allowances) {
      const range = parseRange(each.range);
      next.addSubnet(range.address, range.prefix, range.family);
      const key = `${each.range}@${each.until}`;
      keys.add(key);
      if (!seen.has(key))
        logger.warn(
          {
            event: "breaker_allow",
            range: each.range,
            until: new Date(each.until).toISOString(),
            ...(each.by ? { by: each.by } : {}),
          },
          each.by
            ? "circuit breakers: a network is let through (the dashboard)"
            : "circuit breakers: a range is let through (givekit defence allow)",
        );
    }
    list = next;
    seen = keys;
    readAt = now;
  }

  return {
    /** Reads the allowances again now (this proxy's dashboard just changed one). */
    async refresh(): Promise<void> {
      const fresh = refresh();
      reading = fresh.finally(() => (reading = null));
      await fresh;
    },
    /** Whether this client is in a range let through now (read again at most every ALLOWANCE_REFRESH_MS). */
    async has(ip: string): Promise<boolean> {
      if (Date.now() - readAt > ALLOWANCE_REFRESH_MS) {
        reading ??= refresh().finally(() => (reading = null));
        await reading;
      }
      const version = isIP(ip);
      return version !== 0 && list.check(ip, version === 4 ? "ipv4" : "ipv6");
    },
  };
}
