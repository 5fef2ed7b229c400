import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { reportRow } from "../../test/helpers/fake-upstream";
import { IDLE_MS, openReportSink, READ_AHEAD_BYTES, stopProgressReader } from "./progress-reader";
import { donorHash, hashesAt, summarize, type TallySpec } from "./progress-tally";

const SHAPE = { path: ["report", "transactions"], maxRowBytes: 1 << 20 } as const;
const DAY_MS = 86_400_000;
const BOUNDARY = Date.parse("2026-11-20T00:00:00.000Z");
const SPEC: TallySpec = { shortcode: "71777", keyword: "HOPE", since: 0, boundary: BOUNDARY };

/** A report's answer of `rows`, as the upstream sends it. */
const answerOf = (rows: unknown[]) =>
  Buffer.from(JSON.stringify({ report: { id: 7, status: "completed", transactions: rows } }));

/** Writes the bytes in pieces of `size`, waiting whenever the sink asks to (as http.ts pauses the answer). */
async function writeInPieces(sink: ReturnType<typeof openReportSink>, bytes: Buffer, size: number) {
  let waits = 0;
  for (let at = 0; at < bytes.length; at += size) {
    const refused = sink.write(bytes.subarray(at, at + size));
    if (refused) return { refused, waits };
    const backlog = sink.backlog();
    if (backlog) {
      waits++;
      await backlog;
    }
  }
  return { refused: undefined, waits };
}

afterEach(() => stopProgressReader());

describe("the progress reading thread", () => {
  it("sums a report's bytes however they are cut: either side of the boundary, donors by e-mail, other campaigns and shapes left out", async () => {
    const rows = [
      reportRow({
        transaction_id: "a",
        pledge_wall: true,
        amount: "10.00",
        email: "Ana@Example.org",
        created_at: new Date(BOUNDARY - DAY_MS).toISOString(),
      }),
      reportRow({
        transaction_id: "b",
        pledge_wall: true,
        amount: "5.50",
        email: "ana@example.org",
        created_at: new Date(BOUNDARY + 1).toISOString(),
      }),
      reportRow({
        transaction_id: "c",
        pledge_wall: true,
        amount: "2.25",
        email: "bo@example.org",
        created_at: new Date(BOUNDARY + 2).toISOString(),
      }),
      reportRow({
        transaction_id: "d",
        pledge_wall: true,
        amount: "1.00",
        email: undefined,
        created_at: new Date(BOUNDARY + 3).toISOString(),
      }),
      reportRow({ transaction_id: "e", amount: "99.00", keyword: "OTHER" }),
      reportRow({ transaction_id: "f", amount: "99.00", status: "refunded" }),
      { transaction_id: "g", amount: "not a row" },
    ];
    for (const piece of [1, 7, 64, 1 << 20]) {
      const sink = openReportSink(SPEC, SHAPE);
      expect((await writeInPieces(sink, answerOf(rows), piece)).refused).toBeUndefined();
      expect(await sink.end()).toEqual({ report: { id: 7, status: "completed", transactions: [] } });
      const sums = sink.sums!;
      expect(sums.skipped, `pieces of ${piece} B`).toBe(1);
      expect(sums.before).toEqual({ cents: 1000, gifts: 1, anonymous: 0, donors: 1 });
      expect(sums.from).toEqual({ cents: 875, gifts: 3, anonymous: 1, donors: 2 });
      // Ana gave on both sides: only Bo is new after the boundary.
      expect(hashesAt(sums.donorsBefore, 0, 10)).toEqual([donorHash("ana@example.org")]);
      expect(hashesAt(sums.donorsOnlyFrom, 0, 10)).toEqual([donorHash("bo@example.org")]);
      const kept = rows.slice(0, 4) as Parameters<typeof summarize>[0];
      expect(sums.before.cents + sums.from.cents).toBe(summarize(kept).raisedCents);
      expect(sums.before.donors + sums.donorsOnlyFrom.count + sums.from.anonymous).toBe(
        summarize(kept).donors,
      );
      expect(sums.wall.map((entry) => entry.id)).toEqual(["d", "c", "b", "a"]);
    }
  });

  it("hands donor hashes back sorted by code unit, as the store's index orders them", async () => {
    const rows = Array.from({ length: 2000 }, (_, index) =>
      reportRow({
        transaction_id: `t${index}`,
        email: `donor${index}@example.org`,
        created_at: "2026-11-01T00:00:00.000Z",
      }),
    );
    const sink = openReportSink(SPEC, SHAPE);
    await writeInPieces(sink, answerOf(rows), 4096);
    await sink.end();
    const hashes = hashesAt(sink.sums!.donorsBefore, 0, 2000);
    expect(hashes).toHaveLength(2000);
    expect(hashes).toEqual(rows.map((row) => donorHash(row.email as string)).toSorted());
  });

  it("an answer malformed halfway is refused with why, and the thread goes on serving the next read", async () => {
    const bytes = answerOf([reportRow(), reportRow({ transaction_id: "t2" })]);
    const cut = Buffer.concat([bytes.subarray(0, bytes.length / 2), Buffer.from("}}}]")]);
    const sink = openReportSink(SPEC, SHAPE);
    const { refused } = await writeInPieces(sink, cut, 16);
    await expect(refused ? Promise.reject(new Error(refused)) : sink.end()).rejects.toThrow(
      /malformed answer/,
    );
    const next = openReportSink(SPEC, SHAPE);
    await writeInPieces(next, answerOf([reportRow({ amount: "3.00" })]), 1 << 20);
    await next.end();
    expect(next.sums!.before.cents + next.sums!.from.cents).toBe(300);
  });

  it("a big answer waits for the thread (bytes in its hands stay under READ_AHEAD_BYTES), then sums every row", async () => {
    const rows = Array.from({ length: 60_000 }, (_, index) =>
      reportRow({ transaction_id: `t${index}`, amount: "1.00", email: `d${index % 1000}@example.org` }),
    );
    const bytes = answerOf(rows);
    expect(bytes.length).toBeGreaterThan(4 * READ_AHEAD_BYTES);
    const sink = openReportSink(SPEC, SHAPE);
    const { waits } = await writeInPieces(sink, bytes, 64 * 1024);
    await sink.end();
    expect(waits).toBeGreaterThan(0);
    expect(sink.sums!.before.gifts + sink.sums!.from.gifts).toBe(60_000);
    expect(sink.sums!.before.donors + sink.sums!.donorsOnlyFrom.count).toBe(1000);
  });

  it("stopping the thread fails the reads under way at once; the next read starts another", async () => {
    const sink = openReportSink(SPEC, SHAPE);
    sink.write(answerOf([reportRow()]).subarray(0, 20));
    // Caught at once: the refusal comes while the thread is being stopped, before it is awaited.
    const ending = sink.end().then(
      () => "ended",
      (error: Error) => error.message,
    );
    await stopProgressReader();
    expect(await ending).toBe("the proxy is stopping");
    const next = openReportSink(SPEC, SHAPE);
    next.write(answerOf([reportRow({ amount: "4.00" })]));
    await next.end();
    expect(next.sums!.before.cents + next.sums!.from.cents).toBe(400);
  });

  it(
    "never keeps a process alive: one whose work is done exits at once, not when the thread's idle time is up",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "givekit-reader-"));
      const script = join(dir, "read-once.mts");
      const reader = fileURLToPath(new URL("./progress-reader.ts", import.meta.url));
      writeFileSync(
        script,
        `import { openReportSink } from ${JSON.stringify(reader)};
const sink = openReportSink(${JSON.stringify(SPEC)}, ${JSON.stringify(SHAPE)});
sink.write(Buffer.from('{"report":{"id":1,"status":"done","transactions":[]}}'));
await sink.end();
console.log("read");`,
      );
      try {
        const child = spawn(process.execPath, ["--import", "tsx", script], {
          stdio: ["ignore", "pipe", "inherit"],
        });
        let readAt = 0;
        child.stdout.on("data", () => (readAt ||= performance.now()));
        const code = await new Promise<number | null>((resolve) => {
          const timer = setTimeout(() => child.kill("SIGKILL"), IDLE_MS + 5000);
          child.on("exit", (exit) => {
            clearTimeout(timer);
            resolve(exit);
          });
        });
        expect(readAt).toBeGreaterThan(0);
        expect(code).toBe(0);
        expect(performance.now() - readAt).toBeLessThan(5000);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    IDLE_MS + 15_000,
  );
});
