// Alerts where the staff are: alert.* events on the signed webhooks, as a nonprofit's bridge
// receives them: when a breaker and defence mode open (one decline on a BIN whose breaker holds
// one), and when the upstream has been unreachable for a minute (the sandbox stopped). Each is
// signed as the GUIDE's verifier checks, and names no address.
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProxy } from "../helpers/proxy";
import { startSandbox } from "../helpers/sandbox";
import { CARDS, client, donationBody, postCard, frameCard, useStack } from "./support";
import { guideVerifier, startReceiver, webhooksEnv, type Receiver, type Verify } from "./webhooks-receiver";

const SECRET = "whsec_alerts_test_secret_value";
const PAGER_SECRET = "whsec_pager_recipe_secret_value";
let verify: Verify;
let receiver: Receiver;
/** The GUIDE's pager recipe, run as pasted, and the Slack it posts to. */
let pager: Server;
let slack: Receiver;

function snippet(marker: string): string {
  const guide = readFileSync(join(__dirname, "../../proxy/GUIDE.md"), "utf8");
  const match = new RegExp(`<!-- ${marker} -->\\s*\`\`\`js\\n([\\s\\S]*?)\`\`\``).exec(guide);
  if (!match) throw new Error(`proxy/GUIDE.md has no ${marker} snippet`);
  return match[1]!;
}
const env: Record<string, string> = {
  GIVEKIT_WEBHOOK_BACKOFF_MS: "200",
  GIVEKIT_BREAKER_BIN_DECLINES: "1",
  GIVEKIT_BREAKER_CLIENT_DECLINES: "1",
};
beforeAll(async () => {
  verify = await guideVerifier();
  receiver = await startReceiver();
  slack = await startReceiver();
  const dir = mkdtempSync(join(tmpdir(), "givekit-pager-"));
  writeFileSync(join(dir, "verify.mjs"), snippet("webhook-verify-node"));
  writeFileSync(join(dir, "receiver.mjs"), snippet("webhook-receiver-node"));
  writeFileSync(join(dir, "pager.mjs"), snippet("webhook-recipe-pager"));
  const { pagerReceiver } = (await import(pathToFileURL(join(dir, "pager.mjs")).href)) as {
    pagerReceiver(secret: string, slackUrl: string): Server;
  };
  pager = pagerReceiver(PAGER_SECRET, slack.url);
  await new Promise<void>((resolve) => pager.listen(0, "127.0.0.1", resolve));
  env.GIVEKIT_WEBHOOKS = webhooksEnv(
    {
      url: receiver.url,
      secret: SECRET,
      events: ["alert.defence_mode", "alert.breaker_open", "alert.upstream_unreachable"],
    },
    {
      url: `http://127.0.0.1:${(pager.address() as AddressInfo).port}/givekit`,
      secret: PAGER_SECRET,
      events: ["alert.defence_mode"],
    },
  );
});
afterAll(async () => {
  pager.close();
  await slack.close();
  await receiver.close();
});

const signed = (type: string) =>
  receiver.deliveries.filter(
    (delivery) =>
      JSON.parse(delivery.body).type === type &&
      verify(SECRET, delivery.body, delivery.headers["givekit-signature"] as string),
  );

describe("alerts on the defence", () => {
  const ctx = useStack({ proxy: { env } });
  it("a declined card opens its BIN's breaker and defence mode: both told, signed, once, with no address", async () => {
    const token = await postCard(ctx.api, frameCard(CARDS.declined));
    expect(token.status).toBe(201);
    const declined = await ctx.api.post("/v1/donations", donationBody(String(token.json.token)), {
      headers: { "Idempotency-Key": randomUUID() },
    });
    expect(declined.json.code).toBe("card_declined");
    await receiver.until(
      () => signed("alert.defence_mode").length > 0 && signed("alert.breaker_open").length >= 2,
    );
    const mode = JSON.parse(signed("alert.defence_mode")[0]!.body);
    expect(mode).toMatchObject({
      type: "alert.defence_mode",
      version: 1,
      data: { scope: "all", reason: "bin_run" },
    });
    expect(mode.data.summary).toContain("Defence mode started for every campaign");
    const breakers = signed("alert.breaker_open").map((delivery) => JSON.parse(delivery.body).data);
    expect(breakers.map((data) => data.scope).toSorted()).toEqual(["bin:400000", "client"]);
    for (const delivery of receiver.deliveries) expect(delivery.body).not.toContain("127.0.0.1");
    // The GUIDE's pager recipe posts the alert's summary to Slack.
    await slack.until(() => slack.deliveries.length > 0);
    expect(JSON.parse(slack.deliveries[0]!.body).text).toContain(
      "givekit: Defence mode started for every campaign",
    );
    // Another decline on the same BIN: nothing told again (once per quiet period).
    const told = receiver.deliveries.length;
    const paged = slack.deliveries.length;
    await postCard(ctx.api, frameCard(CARDS.declined));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(receiver.deliveries.length).toBe(told);
    expect(slack.deliveries.length).toBe(paged);
  });
});

describe("alerts on the upstream", () => {
  it("the sandbox stopped for 70 s: alert.upstream_unreachable told, signed, once", async () => {
    const sandbox = await startSandbox();
    const proxy = await startProxy({ upstreamUrl: sandbox.url, env });
    try {
      expect((await client(proxy.url).get("/v1/health")).status).toBe(200);
      const before = receiver.deliveries.length;
      const stoppedAt = Date.now();
      await sandbox.close();
      await receiver.until(() => signed("alert.upstream_unreachable").length > 0, 85_000);
      const waited = Date.now() - stoppedAt;
      // A minute after it last answered (looked at every 10 s): within the 70 s it was stopped.
      expect(waited).toBeGreaterThanOrEqual(50_000);
      expect(waited).toBeLessThanOrEqual(70_000);
      const alert = JSON.parse(signed("alert.upstream_unreachable")[0]!.body);
      expect(alert.data.summary).toContain("has not answered since");
      expect(Date.parse(alert.data.since)).toBeGreaterThanOrEqual(stoppedAt - 10_000);
      expect(receiver.deliveries.length).toBe(before + 1);
    } finally {
      await proxy.close();
    }
  }, 120_000);
});

describe("alerts on webhooks given up", () => {
  // GIVEKIT_WEBHOOK_GIVE_UP_S shortens the 3 days an event is retried to 2 s (the GUIDE's setting).
  it("an event its endpoint refused until the retries ran out: alert.webhooks_given_up told, signed, naming no secret", async () => {
    const dead = await startReceiver(() => 500);
    const alertsTo = await startReceiver();
    const sandbox = await startSandbox();
    const proxy = await startProxy({
      upstreamUrl: sandbox.url,
      env: {
        GIVEKIT_WEBHOOK_BACKOFF_MS: "200",
        GIVEKIT_WEBHOOK_GIVE_UP_S: "2",
        GIVEKIT_WEBHOOKS: webhooksEnv(
          { url: dead.url, secret: "whsec_dead_endpoint_secret", events: ["donation.succeeded"] },
          { url: alertsTo.url, secret: SECRET, events: ["alert.webhooks_given_up"] },
        ),
      },
    });
    try {
      const api = client(proxy.url);
      const token = await postCard(api, frameCard(CARDS.ok));
      const given = await api.post("/v1/donations", donationBody(String(token.json.token)), {
        headers: { "Idempotency-Key": randomUUID() },
      });
      expect(given.status).toBe(200);
      expect(await sandbox.transactions({ status: "collected" })).toHaveLength(1);
      const madeAt = Date.now();
      const givenUp = () =>
        alertsTo.deliveries.filter((delivery) =>
          verify(SECRET, delivery.body, delivery.headers["givekit-signature"] as string),
        );
      await alertsTo.until(() => givenUp().length > 0, 15_000);
      // Not before the retries ran out: the endpoint was tried more than once first.
      expect(Date.now() - madeAt).toBeGreaterThanOrEqual(1000);
      expect(dead.deliveries.length).toBeGreaterThan(1);
      expect(dead.deliveries.every((delivery) => delivery.status === 500)).toBe(true);
      const alert = JSON.parse(givenUp()[0]!.body);
      expect(alert).toMatchObject({
        type: "alert.webhooks_given_up",
        data: { event_type: "donation.succeeded", endpoint: expect.stringContaining("127.0.0.1") },
      });
      expect(alert.data.summary).toContain("given up after 2 s of failed deliveries");
      expect(givenUp()[0]!.body).not.toContain("whsec_dead_endpoint_secret");
      // Given up, not retried: the dead endpoint hears of it no more.
      const tries = dead.deliveries.length;
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(dead.deliveries.length).toBe(tries);
      expect(alertsTo.deliveries).toHaveLength(1);
    } finally {
      await proxy.close();
      await sandbox.close();
      await dead.close();
      await alertsTo.close();
    }
  }, 60_000);
});
