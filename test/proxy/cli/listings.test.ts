// `givekit attempts` and `givekit consents export` at any size: pages (--limit, --after) in
// constant memory, a million attempts' first page within a second, and records holding
// control characters printed as escapes, never raw, in the table, CSV and JSON.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { givekit, jsonLines } from "../../helpers/cli";
import { openSqliteStore } from "../../../proxy/store/sqlite";
import { DB_FILE } from "../../../proxy/store/sqlite/data-dir";
import { openSqlite } from "../../../sqlite/open";

const run = promisify(execFile);

/** A data directory with a migrated store, filled by `fill` in one transaction. */
function dataDirWith(fill: (db: ReturnType<typeof openSqlite>) => void): string {
  const dir = mkdtempSync(join(tmpdir(), "givekit-listings-"));
  const store = openSqliteStore({ dataDir: dir, retentionH: 24, leaseMs: 1000 });
  void store.close();
  const db = openSqlite(join(dir, DB_FILE));
  db.pragma("journal_mode = WAL");
  db.transaction(() => fill(db))();
  db.close();
  return dir;
}

const STATES = ["succeeded", "declined", "succeeded", "failed", "succeeded", "unknown"];

/** `count` attempts a second apart from 2026-01-01, states in turn, with `note`/`utm` from `extra`. */
function insertAttempts(
  db: ReturnType<typeof openSqlite>,
  count: number,
  extra: (i: number) => { note?: string | null; utm?: string | null; keyword?: string } = () => ({}),
) {
  const insert = db.prepare(
    `INSERT INTO donation_attempts (reference, idempotency_key, client_scope, client_ip, fingerprint, shortcode, keyword,
       amount, fee_amount, state, created_at, updated_at, note, utm)
     VALUES (?, ?, 'origin:https://hope.example', '203.0.113.9', 'f', '71777', ?, ?, '0.00', ?, ?, ?, ?, ?)`,
  );
  const start = Date.parse("2026-01-01T00:00:00Z");
  for (let i = 0; i < count; i++) {
    const at = new Date(start + i * 1000).toISOString();
    const { note = null, utm = null, keyword = "HOPE" } = extra(i);
    insert.run(
      `gk_${i.toString(16).padStart(12, "0")}`,
      `k${i}`,
      keyword,
      `${(i % 500) + 1}.00`,
      STATES[i % STATES.length],
      at,
      at,
      note,
      utm,
    );
  }
}

const envFor = (dataDir: string): NodeJS.ProcessEnv => ({
  UPSTREAM_BASE_URL: "http://127.0.0.1:9",
  UPSTREAM_PRIVATE_TOKEN: "private-token-for-listings",
  UPSTREAM_PUBLIC_TOKEN: "public-token-for-listings",
  GIVEKIT_DATA_DIR: dataDir,
});

/** Every raw control character a terminal would act on. */
// oxlint-disable-next-line no-control-regex -- control characters are what must be gone.
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("paging", () => {
  let dir: string;
  beforeAll(() => {
    dir = dataDirWith((db) => insertAttempts(db, 1203));
    dirs.push(dir);
  });

  it("--limit prints that many, oldest first, and says on stderr how to ask for the next page; --after goes on", async () => {
    const seen: string[] = [];
    const pages: { rows: number; next: string | null; last: unknown }[] = [];
    let after: string[] = [];
    for (let page = 0; page < 10 && (page === 0 || after.length > 0); page++) {
      const listed = await givekit(["attempts", "--json", "--limit", "500", ...after], envFor(dir));
      expect(listed.code).toBe(0);
      const rows = jsonLines(listed.out);
      seen.push(...rows.map((row) => String(row.reference)));
      const next = /--after (\S+)/.exec(listed.err)?.[1] ?? null;
      pages.push({ rows: rows.length, next, last: rows.at(-1)?.reference });
      after = next ? ["--after", next] : [];
    }
    expect(pages).toEqual([
      { rows: 500, next: pages[0]!.last, last: expect.any(String) },
      { rows: 500, next: pages[1]!.last, last: expect.any(String) },
      { rows: 203, next: null, last: expect.any(String) },
    ]);
    expect(seen).toEqual(Array.from({ length: 1203 }, (_, i) => `gk_${i.toString(16).padStart(12, "0")}`));
  });

  it("--state and --since narrow it, and pages through them the same way", async () => {
    const first = await givekit(
      ["attempts", "--state", "unknown", "--since", "2026-01-01T00:10:00Z", "--limit", "50"],
      envFor(dir),
    );
    const lines = first.out.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^reference\s+state\s+amount/);
    expect(lines).toHaveLength(51);
    expect(lines.slice(1).every((line) => /^gk_\w+\s+unknown\s/.test(line))).toBe(true);
    const next = /--after (\S+)/.exec(first.err)![1]!;
    const rest = jsonLines(
      (
        await givekit(
          ["attempts", "--state", "unknown", "--since", "2026-01-01T00:10:00Z", "--after", next, "--json"],
          envFor(dir),
        )
      ).out,
    );
    // States repeat every 6 attempts: the unknown ones from second 600 on.
    const unknown = Array.from({ length: 1203 }, (_, i) => i).filter((i) => i % 6 === 5 && i >= 600);
    expect(rest).toHaveLength(unknown.length - 50);
    expect(rest.every((row) => row.state === "unknown")).toBe(true);
  });
});

describe("hostile records", () => {
  const HOSTILE = "A\u001b[2J\u001b]0;pwned\u0007B\rC\u0085D\u009b31mE\u007fF\u202eG\u2028H\nI\u0000";
  let dir: string;
  beforeAll(() => {
    dir = dataDirWith((db) => {
      insertAttempts(db, 3, (i) => ({
        note: i === 1 ? HOSTILE : null,
        utm: i === 2 ? JSON.stringify({ utm_source: HOSTILE }) : null,
        keyword: i === 0 ? "HO\u001bPE" : "HOPE",
      }));
      db.prepare("INSERT INTO consent_texts (sha256, text) VALUES (?, ?)").run(
        "sha-x",
        `Reply STOP${HOSTILE}`,
      );
      db.prepare(
        `INSERT INTO consent_records (mobilenumber, list, keyword, shortcode, consent_text_sha256, consented_at, ip, user_agent, page_url, outcome)
         VALUES ('5550101234', 'Hope Alerts', NULL, NULL, 'sha-x', '2026-01-02T00:00:00.000Z', '203.0.113.9', ?, ?, 'subscribed')`,
      ).run(`Mozilla${HOSTILE}`, `https://hope.example/?e=${HOSTILE}`);
    });
    dirs.push(dir);
  });

  it("attempts, as a table and as JSON lines: control characters escaped, the text still there", async () => {
    const table = await givekit(["attempts"], envFor(dir));
    expect(table.code).toBe(0);
    expect(table.out).not.toMatch(RAW_CONTROL);
    expect(table.out.trimEnd().split("\n")).toHaveLength(4);
    expect(table.out).toContain(
      "A\\u001b[2J\\u001b]0;pwned\\u0007B\\rC\\u0085D\\u009b31mE\\u007fF\\u202eG\\u2028H\\nI\\u0000",
    );
    expect(table.out).toContain("HO\\u001bPE");
    const json = await givekit(["attempts", "--json"], envFor(dir));
    expect(json.out).not.toMatch(RAW_CONTROL);
    const rows = jsonLines(json.out);
    // What a JSON reader gets back is the record as it was kept.
    expect(rows[1]!.note).toBe(HOSTILE);
    expect(JSON.parse(String(rows[2]!.utm)).utm_source).toBe(HOSTILE);
    expect(rows[0]!.keyword).toBe("HO\u001bPE");
  });

  it("consents export, as CSV and as JSON lines: control characters escaped", async () => {
    const csv = await givekit(["consents", "export"], envFor(dir));
    expect(csv.code).toBe(0);
    expect(csv.out.replaceAll("\r\n", "")).not.toMatch(RAW_CONTROL);
    expect(csv.out.split("\r\n").filter(Boolean)).toHaveLength(2);
    expect(csv.out).toContain("MozillaA\\u001b[2J");
    const json = await givekit(["consents", "export", "--format", "json"], envFor(dir));
    expect(json.out).not.toMatch(RAW_CONTROL);
    const [record] = jsonLines(json.out);
    expect(record!.user_agent).toBe(`Mozilla${HOSTILE}`);
    expect(record!.consent_text).toBe(`Reply STOP${HOSTILE}`);
  });

  it("a flag's hostile value is escaped in the usage error", async () => {
    const bad = await givekit(["attempts", "--state", "\u001b[31mred"], envFor(dir));
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("\\u001b[31mred");
    expect(bad.err).not.toMatch(RAW_CONTROL);
  });
});

describe("a year of attempts", () => {
  const MILLION = 1_000_000;
  let dir: string;
  beforeAll(() => {
    dir = dataDirWith((db) => insertAttempts(db, MILLION));
    dirs.push(dir);
  }, 120_000);

  /** `givekit …` in a process of its own (as an operator runs it), measured by listing-run.ts. */
  async function measured(args: string[]) {
    const { stdout } = await run(
      process.execPath,
      // With the young generation bounded, as proxy/GUIDE.md runs givekit: Node 24's default peaked at 237 MB here.
      ["--max-semi-space-size=4", "--import", "tsx", "test/proxy/cli/listing-run.ts", ...args],
      {
        env: { ...process.env, ...envFor(dir) },
        maxBuffer: 1 << 20,
      },
    );
    return JSON.parse(stdout) as {
      code: number;
      firstMs: number;
      totalMs: number;
      lines: number;
      head: string;
      maxRssMb: number;
    };
  }

  it(`givekit attempts over ${MILLION.toLocaleString("en")} rows: the first page within 1 s, all of them in under 200 MB`, async () => {
    const table = await measured(["attempts"]);
    expect(table.code).toBe(0);
    expect(table.head.split("\n")[1]).toMatch(/^gk_000000000000\s+succeeded\s+1\.00\s+71777\s+HOPE/);
    expect(table.lines).toBe(MILLION + 1);
    expect(table.firstMs).toBeLessThan(1000);
    process.stdout.write(
      `givekit attempts over ${MILLION} rows: first page ${table.firstMs.toFixed(0)} ms, peak ${table.maxRssMb.toFixed(0)} MB\n`,
    );
    expect(table.maxRssMb).toBeLessThan(200);
    const unknown = await measured([
      "attempts",
      "--state",
      "unknown",
      "--json",
      "--since",
      "2026-01-06T00:00:00Z",
    ]);
    expect(unknown.code).toBe(0);
    expect(unknown.firstMs).toBeLessThan(1000);
    expect(unknown.maxRssMb).toBeLessThan(200);
    const from = (Date.parse("2026-01-06T00:00:00Z") - Date.parse("2026-01-01T00:00:00Z")) / 1000;
    expect(unknown.lines).toBe(
      Array.from({ length: MILLION - from }, (_, i) => i + from).filter((i) => i % 6 === 5).length,
    );
  }, 120_000);
});
