/**
 * Runs one `givekit` command in a process of its own and reports what an operator would see of
 * it, without keeping its output: when the first bytes came, how many bytes and lines, the exit
 * code and the process's peak memory. listings.test.ts runs it over a million attempts.
 *
 *   node --import tsx test/proxy/cli/listing-run.ts attempts --limit 10
 */
import { main } from "../../../proxy/cli/main";

const started = performance.now();
let firstMs: number | null = null;
let bytes = 0;
let lines = 0;
let head = "";
const out = {
  write(text: string) {
    firstMs ??= performance.now() - started;
    bytes += Buffer.byteLength(text);
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lines++;
    if (head.length < 4000) head += text.slice(0, 4000 - head.length);
    return true;
  },
};
let err = "";
const code = await main(process.argv.slice(2), process.env, out, { write: (text: string) => (err += text) });
process.stdout.write(
  JSON.stringify({
    code,
    firstMs,
    totalMs: performance.now() - started,
    bytes,
    lines,
    head,
    err,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
  }),
);
