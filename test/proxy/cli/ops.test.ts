// `givekit attempts`, `reconcile` and `consents export` on both stores, while the proxy runs
// (on SQLite: beside it, on its data directory), and their bad flags.
import { createHash, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { givekit, jsonLines } from "../../helpers/cli";
import { DEMO } from "../../helpers/sandbox";
import { CARDS, collected, CONSENT_TEXT, CVV, donate, donationBody, tokenize, useStack } from "../support";

/** A CSV cell as RFC 4180 writes text with commas or quotes. */
const csvQuoted = (text: string) => (/[",]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);

/** The attempt `givekit attempts --json` lists for `amount`. */
const byAmount = (out: string, amount: string) =>
  jsonLines<{ amount: string; utm: string }>(out).find((row) => row.amount === amount)!;

describe.each(["sqlite", "postgres"] as const)(
  "the givekit command line on %s, beside a running proxy",
  (store) => {
    // No timer: the command line's reconcile is the one that resolves.
    const ctx = useStack({
      proxy: { env: { UPSTREAM_TIMEOUT_MS: "800", GIVEKIT_RECONCILE_INTERVAL_S: "0" }, store },
    });
    const env = (): NodeJS.ProcessEnv => ({
      UPSTREAM_BASE_URL: ctx.sandbox.url,
      UPSTREAM_PRIVATE_TOKEN: DEMO.hope.privateToken,
      UPSTREAM_PUBLIC_TOKEN: DEMO.hope.publicToken,
      GIVEKIT_DATA_DIR: ctx.proxy.dataDir,
      ...(ctx.proxy.databaseUrl
        ? { DATABASE_URL: ctx.proxy.databaseUrl, GIVEKIT_SIGNING_SECRET: "x".repeat(32) }
        : {}),
    });

    it("attempts lists them without card data; reconcile resolves the unknown one, a line per attempt", async () => {
      const token = await tokenize(ctx.api);
      const paid = await donate(ctx.api, donationBody(token, { amount: "25.00" }), randomUUID());
      expect(paid.status).toBe(200);
      const token2 = await tokenize(ctx.api);
      const lost = await donate(ctx.api, donationBody(token2, { amount: "777.77" }), randomUUID());
      expect(lost.status).toBe(202);
      const reference = lost.json.donation.reference as string;

      const listed = await givekit(["attempts", "--state", "unknown", "--json"], env());
      expect(listed.code).toBe(0);
      expect(jsonLines(listed.out)).toEqual([
        expect.objectContaining({ reference, state: "unknown", amount: "777.77", transaction_id: null }),
      ]);
      const all = await givekit(["attempts"], env());
      expect(all.out.split("\n")[0]).toMatch(/^reference\s+state\s+amount/);
      expect(all.out.trim().split("\n")).toHaveLength(3);
      for (const secret of [token, token2, CARDS.ok]) expect(all.out + listed.out).not.toContain(secret);
      // The CVV as a number of its own: a reference's hex or a time's milliseconds may hold
      // the same digits by chance (1 run in about 100 did), so those are set aside first.
      const shown = (all.out + listed.out)
        .replace(/gk_[0-9a-f]+/g, "gk_")
        .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, "time");
      expect(shown).not.toMatch(new RegExp(`(?<!\\d)${CVV}(?!\\d)`));

      // A page at a time: --limit, and --after the last one shown.
      const first = await givekit(["attempts", "--json", "--limit", "1"], env());
      expect(jsonLines(first.out).map((row) => row.amount)).toEqual(["25.00"]);
      const next = /--after (\S+)/.exec(first.err)![1]!;
      const rest = await givekit(["attempts", "--json", "--limit", "1", "--after", next], env());
      expect(jsonLines(rest.out).map((row) => row.reference)).toEqual([reference]);
      expect(rest.err).toBe("");

      const run = await givekit(["reconcile"], env());
      expect(run.code).toBe(0);
      const [row] = await collected(ctx.sandbox, "HOPE").then((rows) =>
        rows.filter((r) => r.amount === "777.77"),
      );
      expect(run.out).toContain(`${reference}: succeeded (transaction ${row!.transaction_id})`);
      expect((await ctx.api.get(`/v1/donations/${reference}`)).json.donation).toEqual({
        status: "Success",
        reference,
        transaction_id: row!.transaction_id,
      });
      const after = await givekit(["attempts", "--state", "unknown", "--json"], env());
      expect(after.out).toBe("");
    });

    it("two reconcile runs in a row: the second settles what the first leased and could not", async () => {
      const lost = await donate(
        ctx.api,
        donationBody(await tokenize(ctx.api), { amount: "999.99" }),
        randomUUID(),
      );
      expect(lost.status).toBe(202);
      const reference = lost.json.donation.reference as string;
      // Within the settle window: no row yet, so the attempt stays unknown (and was leased).
      const first = await givekit(["reconcile"], env());
      expect(first.out).toContain(`${reference}: unknown: waiting until`);
      // The window over (a second is the least it can be): the next run settles it at once.
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const second = await givekit(["reconcile"], { ...env(), GIVEKIT_RECONCILE_SETTLE_S: "1" });
      expect(second.out).not.toContain("leased_elsewhere");
      expect(second.out).toContain(`${reference}: not_charged`);
      // As the store has it: settled, nothing charged.
      expect((await ctx.api.get(`/v1/donations/${reference}`)).json.donation).toMatchObject({
        status: "NotCharged",
        reference,
      });
      expect((await collected(ctx.sandbox, "HOPE")).filter((row) => row.amount === "999.99")).toEqual([]);
    });

    it("attempts shows the page's utm values the donation carried, cleaned; the service never gets them", async () => {
      const token = await tokenize(ctx.api);
      const utm = {
        utm_source: "newsletter",
        utm_campaign: `gt26\u0000${"x".repeat(150)}`,
        utm_medium: 42,
        ref: "not a tag",
      };
      const paid = await donate(ctx.api, donationBody(token, { amount: "31.00", utm }), randomUUID());
      expect(paid.status).toBe(200);
      const listed = await givekit(["attempts", "--json"], env());
      const mine = byAmount(listed.out, "31.00");
      expect(JSON.parse(mine.utm)).toEqual({
        utm_source: "newsletter",
        utm_campaign: `gt26${"x".repeat(96)}`,
      });
      const [row] = (await collected(ctx.sandbox, "HOPE")).filter((r) => r.amount === "31.00");
      expect(row).toBeDefined();
      expect(JSON.stringify(row)).not.toContain("newsletter");
      // A donation without tags keeps none.
      const token2 = await tokenize(ctx.api);
      const plain = await donate(ctx.api, donationBody(token2, { amount: "32.00" }), randomUUID());
      expect(plain.status).toBe(200);
      expect(byAmount((await givekit(["attempts", "--json"], env())).out, "32.00").utm).toBeNull();
    });

    it("consents export: CSV with a header by default, JSON lines on request, --since filters", async () => {
      const reply = await ctx.api.post(
        "/v1/subscriptions",
        { mobilenumber: "+1 (555) 010-1234", list: "Hope Alerts", consent: true, consent_text: CONSENT_TEXT },
        { headers: { Referer: "https://shelter.example/news", "User-Agent": "GivekitTest/1.0" } },
      );
      expect(reply.status).toBe(201);
      // A page's visitor chooses the user agent: in a spreadsheet it must stay text, not a formula.
      const hostile = await ctx.api.post(
        "/v1/subscriptions",
        { mobilenumber: "+1 (555) 010-9876", list: "Hope Alerts", consent: true, consent_text: CONSENT_TEXT },
        { headers: { "User-Agent": '=HYPERLINK("https://evil.example","x")' } },
      );
      expect(hostile.status).toBe(201);
      const csv = await givekit(["consents", "export"], env());
      expect(csv.code).toBe(0);
      const lines = csv.out.trim().split("\r\n");
      expect(lines[0]).toBe(
        "id,mobilenumber,list,keyword,shortcode,consent_text,consent_locale,consent_text_sha256,consented_at,ip,user_agent,page_url,outcome",
      );
      expect(lines).toHaveLength(3);
      const sha = createHash("sha256").update(CONSENT_TEXT).digest("hex");
      // No language given: its column empty (a record from before languages were kept reads the same).
      expect(lines[1]).toContain(`5550101234,Hope Alerts,,,${csvQuoted(CONSENT_TEXT)},,${sha},`);
      expect(lines[1]).toContain("GivekitTest/1.0,https://shelter.example/news,");
      expect(lines[2]).toContain(`,"'=HYPERLINK(""https://evil.example"",""x"")",`);
      const json = await givekit(["consents", "export", "--format", "json"], env());
      expect(jsonLines(json.out)).toMatchObject([
        {
          mobilenumber: "5550101234",
          list: "Hope Alerts",
          consent_text: CONSENT_TEXT,
          consent_text_sha256: sha,
        },
        { mobilenumber: "5550109876", user_agent: '=HYPERLINK("https://evil.example","x")' },
      ]);
      const later = await givekit(["consents", "export", "--since", "2999-01-01", "--format", "json"], env());
      expect(later.out).toBe("");
    });

    it("bad flags exit 2 with the usage", async () => {
      for (const args of [
        ["attempts", "--state", "lost"],
        ["attempts", "--since", "yesterday"],
        ["attempts", "--color"],
        ["reconcile", "--reference"],
        ["consents", "export", "--format", "xml"],
        ["consents", "export", "--since", "soon"],
        ["attempts", "--limit", "0"],
        ["attempts", "--limit", "ten"],
        ["attempts", "--after", "gk_nobody"],
        ["consents", "export", "--after", "-1"],
      ]) {
        const run = await givekit(args, env());
        expect({ args, code: run.code }).toEqual({ args, code: 2 });
        expect(run.err).toMatch(/Usage: givekit/);
      }
    });
  },
);
