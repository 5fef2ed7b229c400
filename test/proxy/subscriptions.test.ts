// POST /v1/subscriptions: explicit consent, normalized numbers, a consent record for each.
import { createHash } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { main } from "../../proxy/cli/main";
import { CONSENT_TEXT, readStore, upstreamCalls, useStack } from "./support";

const SUBSCRIBE_PATH = "/api/v2/subscriptions/subscribe.json";

const optIn = (fields: Record<string, unknown> = {}) => ({
  mobilenumber: "+1 (555) 010-1234",
  list: "Hope Alerts",
  firstname: "Ana",
  lastname: "Doe",
  consent: true,
  consent_text: CONSENT_TEXT,
  ...fields,
});

describe("POST /v1/subscriptions", () => {
  const ctx = useStack();

  it("subscribes the normalized 10-digit number to the list → 201", async () => {
    const reply = await ctx.api.post("/v1/subscriptions", optIn(), {
      headers: { Referer: "https://shelter.example/news?x=1", "User-Agent": "GivekitTest/1.0" },
    });
    expect(reply.status).toBe(201);
    expect(reply.json).toEqual({ subscription: { status: "subscribed", mobilenumber: "5550101234" } });
    expect(await ctx.sandbox.subscriptions()).toMatchObject([
      { mobilenumber: "5550101234", list: "Hope Alerts", firstname: "Ana", lastname: "Doe" },
    ]);
  });

  it("keeps a consent record: number, target, the text shown and its hash, time, IP, user agent, page URL", async () => {
    const before = Date.now();
    await ctx.api.post("/v1/subscriptions", optIn(), {
      headers: { Referer: "https://shelter.example/news", "User-Agent": "GivekitTest/1.0" },
    });
    // The record is on disk before the number goes upstream; its outcome follows shortly after.
    const [record] = readStore(ctx.proxy.dataDir).consents;
    expect(record).toMatchObject({
      mobilenumber: "5550101234",
      list: "Hope Alerts",
      keyword: null,
      consent_text_sha256: createHash("sha256").update(CONSENT_TEXT).digest("hex"),
      consent_text: CONSENT_TEXT,
      ip: "127.0.0.1",
      user_agent: "GivekitTest/1.0",
      page_url: "https://shelter.example/news",
    });
    expect(Date.parse(record!.consented_at)).toBeGreaterThanOrEqual(before - 1000);
    await expect.poll(() => readStore(ctx.proxy.dataDir).consents[0]?.outcome).toBe("subscribed");
  });

  it("keeps the disclosure in the donor's language with its tag (ht); `givekit consents export` shows both", async () => {
    const { optinHt, commonHt } = await import("../../widget/i18n/ht");
    const shown = `${optinHt.disclosure("Hope Shelter")} ${commonHt.terms} ${optinHt.and} ${commonHt.privacy}.`;
    const reply = await ctx.api.post(
      "/v1/subscriptions",
      optIn({ consent_text: shown, consent_locale: "ht" }),
    );
    expect(reply.status).toBe(201);
    const [record] = readStore(ctx.proxy.dataDir).consents;
    expect(record).toMatchObject({ consent_text: shown, consent_locale: "ht" });

    let out = "";
    const code = await main(
      ["consents", "export", "--format", "json"],
      {
        GIVEKIT_DATA_DIR: ctx.proxy.dataDir,
        UPSTREAM_BASE_URL: ctx.sandbox.url,
        UPSTREAM_PRIVATE_TOKEN: "x",
        UPSTREAM_PUBLIC_TOKEN: "y",
      },
      { write: (text: string) => (out += text) },
      { write: () => undefined },
    );
    expect(code).toBe(0);
    expect(JSON.parse(out.trim().split("\n")[0]!)).toMatchObject({
      consent_text: shown,
      consent_locale: "ht",
    });
  });

  it("refuses a consent_locale givekit does not speak → 400 naming it; nothing sent", async () => {
    const reply = await ctx.api.post("/v1/subscriptions", optIn({ consent_locale: "klingon" }));
    expect(reply.status).toBe(400);
    expect(JSON.stringify(reply.json)).toContain("consent_locale");
    expect(await ctx.sandbox.subscriptions()).toEqual([]);
  });

  it("subscribes to a keyword + shortcode of a served campaign", async () => {
    const reply = await ctx.api.post(
      "/v1/subscriptions",
      optIn({ list: undefined, keyword: "HOPE", shortcode: "71777" }),
    );
    expect(reply.status).toBe(201);
    expect(await ctx.sandbox.subscriptions()).toMatchObject([
      { keyword: "HOPE", shortcode: "71777", list: null },
    ]);
  });

  it("a list wins over keyword + shortcode, as upstream", async () => {
    const reply = await ctx.api.post("/v1/subscriptions", optIn({ keyword: "MEALS", shortcode: "41444" }));
    expect(reply.status).toBe(201);
    expect(await ctx.sandbox.subscriptions()).toMatchObject([{ list: "Hope Alerts", keyword: null }]);
  });

  it.each([
    ["consent false", { consent: false }],
    ["consent missing", { consent: undefined }],
    ["consent as a string", { consent: "true" }],
  ])("%s → 400 consent_required; nothing sent, no record", async (_name, fields) => {
    const reply = await ctx.api.post("/v1/subscriptions", optIn(fields));
    expect(reply.status).toBe(400);
    expect(reply.json.code).toBe("consent_required");
    expect(reply.json.errors).toHaveProperty("consent");
    expect(await upstreamCalls(ctx.sandbox, SUBSCRIBE_PATH)).toBe(0);
    expect(readStore(ctx.proxy.dataDir).consents).toEqual([]);
  });

  it.each([["555010123"], ["555010123456"], ["+44 20 7946 0958"], ["call me"]])(
    "the number %j → 400 naming mobilenumber; nothing sent",
    async (mobilenumber) => {
      const reply = await ctx.api.post("/v1/subscriptions", optIn({ mobilenumber }));
      expect(reply.status).toBe(400);
      expect(reply.json.code).toBe("validation_failed");
      expect(reply.json.errors).toHaveProperty("mobilenumber");
      expect(await upstreamCalls(ctx.sandbox, SUBSCRIBE_PATH)).toBe(0);
    },
  );

  it("a list no campaign offers → 404 campaign_not_served; nothing sent", async () => {
    const reply = await ctx.api.post("/v1/subscriptions", optIn({ list: "River News" }));
    expect(reply.status).toBe(404);
    expect(reply.json.code).toBe("campaign_not_served");
    expect(await upstreamCalls(ctx.sandbox, SUBSCRIBE_PATH)).toBe(0);
  });

  it("no list and no keyword + shortcode → 400 naming list", async () => {
    const reply = await ctx.api.post("/v1/subscriptions", optIn({ list: undefined }));
    expect(reply.status).toBe(400);
    expect(reply.json.errors).toHaveProperty("list");
  });
});

describe("POST /v1/subscriptions refused upstream", () => {
  const dir = mkdtempSync(join(tmpdir(), "givekit-campaigns-"));
  const campaigns = join(dir, "campaigns.json");
  writeFileSync(
    campaigns,
    JSON.stringify({
      campaigns: [
        {
          shortcode: "71777",
          keyword: "HOPE",
          fee_rate: "0.03",
          max_amount: "100.00",
          currency: "USD",
          recurring_frequencies: [],
          peer_fundraising: true,
          opt_in_lists: ["No Such List"],
        },
      ],
    }),
  );
  const ctx = useStack({ proxy: { env: { GIVEKIT_CAMPAIGNS: campaigns } } });

  it("a list the account does not have → 422 subscription_rejected; the consent record says rejected", async () => {
    const reply = await ctx.api.post("/v1/subscriptions", optIn({ list: "No Such List" }));
    expect(reply.status).toBe(422);
    expect(reply.json.code).toBe("subscription_rejected");
    expect(reply.text).not.toContain("list_not_found");
    await expect.poll(() => readStore(ctx.proxy.dataDir).consents).toMatchObject([{ outcome: "rejected" }]);
    expect(await ctx.sandbox.subscriptions()).toEqual([]);
  });
});
