// The row reader under lists and reports: every element once, in order, whatever the chunks.
import { describe, expect, it } from "vitest";
import { readJsonRows } from "../../../proxy/upstream/json-rows";

function read(text: string, chunkSize: number, maxRowBytes = 1 << 20) {
  const rows: unknown[] = [];
  const reader = readJsonRows({
    path: ["report", "transactions"],
    onRow: (row) => rows.push(row),
    maxRowBytes,
  });
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += chunkSize) reader.write(bytes.subarray(at, at + chunkSize));
  return { envelope: reader.end(), rows };
}

describe("reading a report's rows one at a time", () => {
  const tricky = [
    { memo: 'brackets ] } [ { and a quote \\" and a backslash \\\\', n: [1, { deep: "]" }] },
    "é€😀",
    3.5,
    null,
    [],
  ];
  const text = JSON.stringify({
    before: { transactions: ["not these"], list: [1, 2] },
    report: { id: 7, status: "complete", note: "a [ in a string", transactions: tricky, after: true },
  });

  it.each([1, 2, 7, 64, 100_000])(
    "in chunks of %i bytes: each element as JSON.parse gives it, the envelope without them",
    (size) => {
      const { envelope, rows } = read(text, size);
      expect(rows).toEqual(tricky);
      expect(envelope).toEqual({
        before: { transactions: ["not these"], list: [1, 2] },
        report: { id: 7, status: "complete", note: "a [ in a string", transactions: [], after: true },
      });
    },
  );

  it.each([
    ['{"report":{"transactions":[1,]}}', "a trailing comma"],
    ['{"report":{"transactions":[,1]}}', "a leading comma"],
    ['{"report":{"transactions":[{"a":1}}]}}', "a brace too many"],
    ['{"report":{"transactions":[{"a":tru}]}}', "a bad literal"],
    ['{"report":{"transactions":[1,2', "an answer cut off"],
    ['{"report":{"id":1}} {"x":2}', "two documents"],
  ])("%s (%s) is refused", (bad) => {
    for (const size of [1, 1000]) expect(() => read(bad, size)).toThrow(/not JSON|ended before/);
  });

  it("a row over the bound is refused as it grows, before it is whole", () => {
    const big = JSON.stringify({ report: { transactions: [{ memo: "x".repeat(5000) }] } });
    expect(() => read(big, 100, 4096)).toThrow(/more than 4096 bytes/);
    expect(read(big, 100, 8192).rows).toHaveLength(1);
  });
});
