/**
 * `givekit defence status` and `givekit defence allow`: the circuit breakers as every proxy on
 * this store sees them (proxy/defence/breaker.ts), and a venue let through them for an event
 * (proxy/defence/allowances.ts), read and written in the store's shared notes: PostgreSQL's, or
 * the SQLite file's beside its running proxy (which reads an allowance within 10 s).
 */
import {
  AllowanceInputError,
  allowRange,
  currentAllowances,
  parseDuration,
  parseRange,
} from "../defence/allowances";
import { heldNow } from "../defence/breaker";
import { escapeControls } from "./escape";
import { UsageError, withStore } from "./ops";
import type { Output } from "./output";

const at = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;

/** `givekit defence status`: open breakers (campaigns, then clients held), and the ranges let through. */
export async function runDefenceStatus(
  _values: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
  out: Output,
) {
  return withStore(env, out, false, async (store) => {
    const notes = store.sharedNotes;
    const breakerNotes = (await notes.notesUnder("breaker:")).filter((note) => note.value !== "");
    const open = breakerNotes.flatMap((note) => {
      try {
        const state = JSON.parse(note.value) as { until: number; openS: number; openedAt: number };
        return [{ scope: note.key.slice("breaker:".length), ...state }];
      } catch {
        return [];
      }
    });
    const now = Date.now();
    const line = (each: (typeof open)[number]) =>
      `  ${each.scope}: opened ${at(each.openedAt)}, ${each.until > now ? `cards wait until ${at(each.until)}` : "a probe's turn is free"} (${each.openS} s)`;
    const campaigns = open.filter((each) => each.scope.startsWith("campaign:"));
    const clients = open.filter((each) => each.scope.startsWith("client:"));
    out.write(`open breakers, campaigns: ${campaigns.length || "none"}\n`);
    for (const each of campaigns) out.write(`${escapeControls(line(each))}\n`);
    out.write(`scrutinised clients (their breaker open): ${clients.length || "none"}\n`);
    for (const each of clients) out.write(`${escapeControls(line(each))}\n`);
    const held = heldNow(breakerNotes, now);
    out.write(
      `people held now: ${held.people || "none"}${held.people ? `, the longest for ${held.longestS} s` : ""}\n`,
    );
    const allowed = await currentAllowances(notes);
    out.write(`ranges let through: ${allowed.length || "none"}\n`);
    for (const each of allowed) out.write(`${escapeControls(`  ${each.range} until ${at(each.until)}`)}\n`);
    return 0;
  });
}

/** `givekit defence allow <address or range> --for 6h`: checked first; a malformed one changes nothing. */
export async function runDefenceAllow(values: Record<string, unknown>, env: NodeJS.ProcessEnv, out: Output) {
  const positionals = (values._ as string[] | undefined) ?? [];
  if (positionals.length !== 1) throw new UsageError("name one address or range (203.0.113.0/24)");
  if (typeof values.for !== "string") throw new UsageError("say for how long: --for 6h");
  let range: string;
  let forMs: number;
  try {
    range = parseRange(positionals[0]!).text;
    forMs = parseDuration(values.for);
  } catch (error) {
    if (error instanceof AllowanceInputError) throw new UsageError(escapeControls(error.message));
    throw error;
  }
  return withStore(env, out, true, async (store) => {
    const notes = store.sharedNotes;
    const allowance = await allowRange(notes, range, forMs);
    out.write(
      `${JSON.stringify({ event: "breaker_allow", range: allowance.range, since: at(allowance.since), until: at(allowance.until) })}\n` +
        `allowed ${allowance.range} until ${at(allowance.until)}: its clients pass the circuit breakers (every proxy reads it within 10 s, and logs it)\n`,
    );
    return 0;
  });
}
