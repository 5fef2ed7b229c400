/**
 * A part of `npm run bench`: one row of the table of parts in bench/proxy-bench.ts, which runs
 * the parts in turn (BENCH_ONLY names some of them) and judges the figures they return against
 * bench/baseline.json. A part starts its processes with bench/children.ts, and stops them before
 * it returns (so the next part has the cores); whatever it leaves is stopped at the end of the
 * run, or on any way out of it.
 *
 * @example
 * export const scaleGifts: BenchPart = async (run) => {
 *   const proxy = await startServer([await run.compiled("proxy"), ...], env);
 *   ...
 *   await stopChild(proxy.child);
 *   return { gifts_per_s: perS };
 * };
 */
export interface BenchRun {
  /** The instant upstream stub (bench/upstream-stub.ts), started on first use. */
  stub(): Promise<{ url: string }>;
  /** A PostgreSQL for the run (BENCH_DATABASE_URL's, or an embedded one started on first use): an admin URL. */
  postgres(): Promise<string>;
  /** The path of a program compiled for the run (`proxy`, `forwarder`, `upstream-stub`), compiled on first use. */
  compiled(name: "proxy" | "forwarder" | "upstream-stub"): Promise<string>;
  /** Prints a line of the bench's report. */
  say(text?: string): void;
}

/** Measures; resolves with figures by name (those named in bench/baseline.json are judged). */
export type BenchPart = (run: BenchRun) => Promise<Record<string, number>>;
