// Records no donor can forge, and no other user can read: a memo never holds a dedication line
// the donor wrote (read back as the nonprofit's programs read it, with readDedication), a
// dedication name refuses every line break and bidi control, and the data directory's files
// are the proxy's user's alone.
import { statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { memoWithDedication, readDedication } from "../../contract/dedication";
import { collected, DONATE_PATH, donate, donationBody, tokenize, upstreamCalls, useStack } from "./support";

const FORGED = "[Dedication] In honor of Evil <evil@evil.example>";

describe("a donor's memo", () => {
  const ctx = useStack();

  /** Donates with `fields`; the memo the sandbox recorded for it. */
  async function memoOf(fields: Record<string, unknown>): Promise<string> {
    const reply = await donate(
      ctx.api,
      donationBody(await tokenize(ctx.api), { amount: "12.00", ...fields }),
    );
    expect(reply.status).toBe(200);
    const rows = await collected(ctx.sandbox);
    return rows.at(-1)!.memo as string;
  }

  it.each([
    ["a line feed", `For the winter beds\n${FORGED}`],
    ["a carriage return", `For the winter beds\r${FORGED}`],
    ["CR LF", `For the winter beds\r\n${FORGED}`],
    ["a line separator (U+2028)", `For the winter beds\u2028${FORGED}`],
    ["a paragraph separator (U+2029)", `For the winter beds\u2029${FORGED}`],
    ["a next line (U+0085)", `For the winter beds\u0085${FORGED}`],
    ["a vertical tab", `For the winter beds\v${FORGED}`],
    ["a form feed", `For the winter beds\f${FORGED}`],
    ["leading spaces and another case", `For the winter beds\n   [ dedication ] In honor of Evil`],
    ["a zero-width space before it", `For the winter beds\n\u200b${FORGED}`],
    ["a bidi isolate before it", `For the winter beds\n\u2066${FORGED}\u2069`],
    ["nothing before it", FORGED],
    ["fullwidth brackets", "For the winter beds\n［Dedication］ In honor of Evil"],
    ["a zero-width space inside the marker", "For the winter beds\n[Dedi\u200bcation] In honor of Evil"],
    ["a soft hyphen inside the marker", "For the winter beds\n[Dedi\u00adcation] In honor of Evil"],
    ["round brackets", "For the winter beds\n(Dedication) In honor of Evil"],
    ["fullwidth letters", "For the winter beds\n[Ｄｅｄｉｃａｔｉｏｎ] In honor of Evil"],
  ])("never reads as a dedication the donor did not make: %s", async (_name, memo) => {
    const sent = await memoOf({ memo });
    expect(readDedication(sent).dedication).toBeNull();
    // Nor does any of its lines, as any reader splits them and reads them (NFKC, nothing unseen).
    for (const line of sent.split(/\r\n|[\n\r\v\f\u0085\u2028\u2029]/))
      expect(line.normalize("NFKC").replace(/[\s\p{Cf}]/gu, "")).not.toMatch(/[[(]dedication[\])]/i);
  });

  it("beside a real dedication: one dedication line, the donor's, read back as made", async () => {
    const dedication = { kind: "memory", name: "Jane Doe", notify_email: "jane@example.org" } as const;
    const sent = await memoOf({ memo: `For the winter beds\n${FORGED}`, dedication });
    expect(sent.split("\n").filter((line) => line.startsWith("[Dedication]"))).toEqual([
      "[Dedication] In memory of Jane Doe <jane@example.org>",
    ]);
    expect(readDedication(sent)).toEqual({
      message: "For the winter beds\nDonor wrote: In honor of Evil <evil@evil.example>",
      dedication,
    });
  });

  it("keeps an honest message as written, its lines joined by line feeds", async () => {
    expect(await memoOf({ memo: "For the winter beds\r\nand blankets" })).toBe(
      "For the winter beds\nand blankets",
    );
  });
});

describe("a dedication's name", () => {
  const ctx = useStack();

  it.each([
    ["U+2028 line separator", "Jane\u2028[Dedication] In honor of Evil"],
    ["U+2029 paragraph separator", "Jane\u2029Doe"],
    ["U+0085 next line", "Jane\u0085Doe"],
    ["a line feed", "Jane\nDoe"],
    ["U+202E right-to-left override", "Jane \u202Eeod"],
    ["U+202A left-to-right embedding", "Jane \u202ADoe"],
    ["U+2066 left-to-right isolate", "Jane \u2066Doe\u2069"],
    ["U+200F right-to-left mark", "Jane\u200F Doe"],
    ["U+061C Arabic letter mark", "Jane\u061C Doe"],
    ["DEL", "Jane\u007fDoe"],
    ["a C1 control", "Jane\u009bDoe"],
  ])("refuses %s: 400 naming dedication.name, nothing charged", async (_name, name) => {
    const before = await upstreamCalls(ctx.sandbox, DONATE_PATH);
    const reply = await donate(
      ctx.api,
      donationBody(await tokenize(ctx.api), { dedication: { kind: "honor", name } }),
    );
    expect(reply.status).toBe(400);
    expect(reply.headers.get("content-type")).toBe("application/problem+json");
    expect(reply.json.code).toBe("validation_failed");
    expect(Object.keys(reply.json.errors)).toContain("dedication.name");
    expect(await upstreamCalls(ctx.sandbox, DONATE_PATH)).toBe(before);
    expect(await collected(ctx.sandbox)).toEqual([]);
  });
});

describe("the memo's rule, alone", () => {
  it("never makes a memo longer than the message and the line it was given", () => {
    const memo = `a\r\nb\u202E\r\n[Dedication] x`;
    expect(memoWithDedication(memo, undefined)!.length).toBeLessThanOrEqual(memo.length);
  });
});

describe("the data directory's files", () => {
  const ctx = useStack();

  it("are the proxy's user's alone (0600): the store, its WAL, the lock and the signing secret", async () => {
    expect((await donate(ctx.api, donationBody(await tokenize(ctx.api)))).status).toBe(200);
    const modes = Object.fromEntries(
      ["givekit.db", "givekit.db-wal", "givekit.db-shm", "givekit.lock", "signing-secret"].map((name) => [
        name,
        (statSync(join(ctx.proxy.dataDir, name)).mode & 0o777).toString(8),
      ]),
    );
    expect(modes).toEqual({
      "givekit.db": "600",
      "givekit.db-wal": "600",
      "givekit.db-shm": "600",
      "givekit.lock": "600",
      "signing-secret": "600",
    });
  });
});
