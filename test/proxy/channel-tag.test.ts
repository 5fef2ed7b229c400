// The nonprofit's channel tag and the donor's one name field, through the proxy to the sandbox:
// what the sandbox's own records show in `source` and the donor's name, and what is refused.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CampaignResponseSchema } from "../../contract/api";
import { ProblemSchema } from "../../contract/error-schemas";
import { ConfigError, loadConfig } from "../../proxy/config";
import {
  collected,
  donate,
  donationBody,
  DONATE_PATH,
  readStore,
  tokenize,
  upstreamCalls,
  useStack,
  type Reply,
} from "./support";

const DEMO_CAMPAIGNS = join(import.meta.dirname, "../../proxy/campaigns.demo.json");

/** The demo campaigns, HOPE's with the channel tag `tag` (the campaigns file's `source`). */
function campaignsWithSource(tag: unknown): string {
  const demo = JSON.parse(readFileSync(DEMO_CAMPAIGNS, "utf8"));
  demo.campaigns[0].source = tag;
  const path = join(mkdtempSync(join(tmpdir(), "givekit-campaigns-")), "campaigns.json");
  writeFileSync(path, JSON.stringify(demo));
  return path;
}

/** The reference the proxy gave the latest attempt, from its own store. */
function latestReference(dataDir: string): string {
  return readStore(dataDir).attempts.at(-1)!.reference;
}

function expectRefused(reply: Reply, field: string) {
  expect(reply.status).toBe(400);
  expect(reply.headers.get("content-type")).toBe("application/problem+json");
  expect(ProblemSchema.safeParse(reply.json).success).toBe(true);
  expect(reply.json.code).toBe("validation_failed");
  expect(Object.keys(reply.json.errors)).toContain(field);
}

describe("a channel tag on the element (`source`)", () => {
  const ctx = useStack();

  it("reaches the upstream's source beside the reference: the sandbox's record shows it", async () => {
    const token = await tokenize(ctx.api);
    const reply = await donate(ctx.api, donationBody(token, { source: "spring-gala" }));
    expect(reply.status).toBe(200);
    const [row] = await collected(ctx.sandbox);
    const reference = latestReference(ctx.proxy.dataDir);
    expect(row).toMatchObject({
      transaction_id: reply.json.donation.transaction_id,
      source: `api_via_givekit.spring-gala.${reference}`,
    });
  });

  it("without one, the source is givekit's and the reference alone", async () => {
    const token = await tokenize(ctx.api);
    expect((await donate(ctx.api, donationBody(token))).status).toBe(200);
    const [row] = await collected(ctx.sandbox);
    expect(row!.source).toBe(`api_via_givekit.${latestReference(ctx.proxy.dataDir)}`);
  });

  it.each([
    ["33 characters", "a".repeat(33)],
    ["a space", "spring gala"],
    ["a dot, which separates givekit's reference", "spring.gala"],
    ["markup", "<b>gala</b>"],
    ["nothing", ""],
    ["a number", 2026],
    ["an accented letter", "galà"],
  ])("a source of %s → 400 naming source; nothing charged, nothing sent", async (_, source) => {
    const token = await tokenize(ctx.api);
    const reply = await donate(ctx.api, donationBody(token, { source }));
    expectRefused(reply, "source");
    expect(Object.keys(reply.json.errors)).toEqual(["source"]);
    expect(reply.json.errors.source[0]).toContain("1 to 32 letters, digits, - and _");
    expect(await upstreamCalls(ctx.sandbox, DONATE_PATH)).toBe(0);
    expect(await ctx.sandbox.transactions()).toEqual([]);
  });

  it("the longest tag (32 characters) still fits, with the reference, in the upstream's 64", async () => {
    const token = await tokenize(ctx.api);
    const tag = "Spring_Gala-2026_".padEnd(32, "x");
    expect((await donate(ctx.api, donationBody(token, { source: tag }))).status).toBe(200);
    const [row] = await collected(ctx.sandbox);
    expect(row!.source).toBe(`api_via_givekit.${tag}.${latestReference(ctx.proxy.dataDir)}`);
    expect(row!.source.slice("api_via_".length)).toHaveLength(64);
  });
});

describe("a campaign's channel tag (the campaigns file's `source`)", () => {
  const ctx = useStack({ proxy: { env: { GIVEKIT_CAMPAIGNS: campaignsWithSource("newsletter") } } });

  it("tags its gifts when the element names none; the element's tag wins", async () => {
    const first = await donate(ctx.api, donationBody(await tokenize(ctx.api)));
    expect(first.status).toBe(200);
    const campaignTagged = latestReference(ctx.proxy.dataDir);
    const second = await donate(ctx.api, donationBody(await tokenize(ctx.api), { source: "footer" }));
    expect(second.status).toBe(200);
    const elementTagged = latestReference(ctx.proxy.dataDir);
    // MEALS names no tag.
    const third = await donate(
      ctx.api,
      donationBody(await tokenize(ctx.api), { shortcode: "41444", keyword: "MEALS" }),
    );
    expect(third.status).toBe(200);
    const untagged = latestReference(ctx.proxy.dataDir);

    const sources = Object.fromEntries(
      (await collected(ctx.sandbox)).map((row) => [row.transaction_id, row.source]),
    );
    expect(sources).toEqual({
      [first.json.donation.transaction_id]: `api_via_givekit.newsletter.${campaignTagged}`,
      [second.json.donation.transaction_id]: `api_via_givekit.footer.${elementTagged}`,
      [third.json.donation.transaction_id]: `api_via_givekit.${untagged}`,
    });
  });

  it("is the operator's: the campaign's answer to the widget does not carry it", async () => {
    const reply = await ctx.api.get("/v1/campaigns/71777/HOPE");
    expect(reply.status).toBe(200);
    expect(reply.json).not.toHaveProperty("source");
    expect(CampaignResponseSchema.safeParse(reply.json).success).toBe(true);
  });
});

describe("a campaigns file with a bad channel tag", () => {
  it.each([["a".repeat(33)], ["spring gala"], ["a.b"], [""], [7]])(
    "source %j: the proxy does not start, and says which campaign's source",
    (tag) => {
      const env = {
        UPSTREAM_BASE_URL: "http://127.0.0.1:4010",
        UPSTREAM_PRIVATE_TOKEN: "private-token-for-config-tests",
        UPSTREAM_PUBLIC_TOKEN: "public-token-for-config-tests",
        GIVEKIT_CAMPAIGNS: campaignsWithSource(tag),
      };
      let error: unknown;
      try {
        loadConfig(env);
      } catch (thrown) {
        error = thrown;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).variable).toBe("GIVEKIT_CAMPAIGNS");
      expect((error as ConfigError).message).toContain("campaigns.0.source");
      // Without it, the same file loads.
      expect(() => loadConfig({ ...env, GIVEKIT_CAMPAIGNS: campaignsWithSource(undefined) })).not.toThrow();
    },
  );
});

describe("one name field (`full_name`)", () => {
  const ctx = useStack();

  it("a donor who gives one name: the sandbox records it split, the last word the last name", async () => {
    const token = await tokenize(ctx.api);
    const reply = await donate(
      ctx.api,
      donationBody(token, { donor: { full_name: "  Mary Ann  Smith ", email: "mary@example.org" } }),
    );
    expect(reply.status).toBe(200);
    const [row] = await collected(ctx.sandbox);
    expect(row).toMatchObject({ first_name: "Mary Ann", last_name: "Smith", email: "mary@example.org" });
  });

  it.each([
    ["only spaces", "   "],
    ["201 characters", "M".repeat(201)],
    ["a number", 42],
  ])("a full_name of %s → 400 naming donor.full_name; nothing charged", async (_, full_name) => {
    const token = await tokenize(ctx.api);
    const reply = await donate(
      ctx.api,
      donationBody(token, { donor: { full_name, email: "mary@example.org" } }),
    );
    expectRefused(reply, "donor.full_name");
    expect(await upstreamCalls(ctx.sandbox, DONATE_PATH)).toBe(0);
    expect(await ctx.sandbox.transactions()).toEqual([]);
  });
});
