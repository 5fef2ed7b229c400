import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { signatureHeader, verifySignature } from "../../proxy/webhooks/signature";
import { parseWebhooks } from "../../proxy/webhooks/endpoints";
import { giftData, makeEvent } from "../../proxy/webhooks/events";

type Verify = (secret: string, body: string, header: string, toleranceS?: number, nowS?: number) => boolean;

/** The GUIDE's Node snippet, word for word, as a receiver would paste it. */
let guideVerify: Verify;
beforeAll(async () => {
  const guide = readFileSync(join(__dirname, "../../proxy/GUIDE.md"), "utf8");
  const match = /<!-- webhook-verify-node -->\s*```js\n([\s\S]*?)```/.exec(guide);
  if (!match) throw new Error("proxy/GUIDE.md has no Node verification snippet");
  const file = join(mkdtempSync(join(tmpdir(), "givekit-snippet-")), "verify.mjs");
  writeFileSync(file, match![1]!);
  guideVerify = ((await import(pathToFileURL(file).href)) as { verifyGivekit: Verify }).verifyGivekit;
});

const secret = "whsec-test-0123456789abcdef";
const body = JSON.stringify(
  makeEvent("donation.succeeded", giftData({ reference: "r1", campaign_id: "c1", amount_cents: 2500 })),
);
const now = 1_800_000_000;

describe("the GUIDE's Node verification snippet", () => {
  it("accepts what the proxy signs", () => {
    expect(guideVerify(secret, body, signatureHeader(secret, body, now), 300, now)).toBe(true);
    expect(guideVerify(secret, body, signatureHeader(secret, body, now - 120), 300, now)).toBe(true);
  });
  it("rejects a forged body, a wrong secret, a stale or future timestamp and a missing header", () => {
    const header = signatureHeader(secret, body, now);
    expect(guideVerify(secret, body.replace("2500", "250000"), header, 300, now)).toBe(false);
    expect(guideVerify("another-secret-0123456789ab", body, header, 300, now)).toBe(false);
    expect(guideVerify(secret, body, signatureHeader(secret, body, now - 301), 300, now)).toBe(false);
    expect(guideVerify(secret, body, signatureHeader(secret, body, now + 301), 300, now)).toBe(false);
    expect(guideVerify(secret, body, "", 300, now)).toBe(false);
    expect(guideVerify(secret, body, header.replace(/t=\d+/, `t=${now - 1}`), 300, now)).toBe(false);
  });
  it("agrees with the proxy's own verifier", () => {
    const header = signatureHeader(secret, body, now);
    expect(verifySignature(secret, body, header, now)).toEqual({ ok: true, t: now });
    expect(verifySignature(secret, body + " ", header, now)).toMatchObject({ ok: false });
    expect(verifySignature(secret, body, header, now + 400)).toEqual({
      ok: false,
      reason: "timestamp outside tolerance",
    });
  });
});

describe("GIVEKIT_WEBHOOKS", () => {
  it("reads endpoints and names what is wrong without showing a secret", () => {
    const good = [{ url: "https://crm.example.org/hook", events: ["donation.succeeded"], secret }];
    expect(parseWebhooks(JSON.stringify(good))).toEqual({ ok: true, endpoints: good });
    expect(parseWebhooks(undefined)).toEqual({ ok: true, endpoints: [] });
    expect(parseWebhooks("{")).toMatchObject({ ok: false, message: expect.stringContaining("not JSON") });
    const badEvent = parseWebhooks(JSON.stringify([{ ...good[0], events: ["donation.refunded"] }]));
    expect(badEvent).toMatchObject({ ok: false, message: expect.stringContaining("0.events.0") });
    const short = parseWebhooks(JSON.stringify([{ ...good[0], secret: "short" }]));
    expect(short).toMatchObject({ ok: false, message: expect.stringContaining("24 characters") });
    expect(JSON.stringify(short)).not.toContain('"short"');
  });
});

describe("GIVEKIT_WEBHOOKS in the proxy's configuration", () => {
  const base = {
    UPSTREAM_BASE_URL: "http://127.0.0.1:4010",
    UPSTREAM_PRIVATE_TOKEN: "p".repeat(20),
    UPSTREAM_PUBLIC_TOKEN: "q".repeat(20),
  };
  it("is read once at start; a bad value names the variable and hides the secret", async () => {
    const { loadConfig, ConfigError } = await import("../../proxy/config");
    expect(loadConfig(base).webhooks).toEqual([]);
    const endpoint = { url: "https://crm.example.org/hook", events: ["dedication.made"], secret };
    expect(loadConfig({ ...base, GIVEKIT_WEBHOOKS: JSON.stringify([endpoint]) }).webhooks).toEqual([
      endpoint,
    ]);
    const bad = JSON.stringify([{ ...endpoint, url: "ftp://x" }]);
    expect(() => loadConfig({ ...base, GIVEKIT_WEBHOOKS: bad })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, GIVEKIT_WEBHOOKS: bad })).toThrow(/^GIVEKIT_WEBHOOKS: 0\.url/);
    const thrown = (() => {
      try {
        loadConfig({ ...base, GIVEKIT_WEBHOOKS: bad });
        return "";
      } catch (error) {
        return String(error);
      }
    })();
    expect(thrown).toMatch(/^ConfigError: GIVEKIT_WEBHOOKS: /);
    expect(thrown).not.toContain(secret);
  });
});

describe("GIVEKIT_WEBHOOK_BACKOFF_MS", () => {
  const base = {
    UPSTREAM_BASE_URL: "http://127.0.0.1:4010",
    UPSTREAM_PRIVATE_TOKEN: "p".repeat(20),
    UPSTREAM_PUBLIC_TOKEN: "q".repeat(20),
  };
  it("is 30 s unless set; a value out of its range names the variable", async () => {
    const { loadConfig } = await import("../../proxy/config");
    expect(loadConfig(base).webhookBackoffMs).toBe(30_000);
    expect(loadConfig({ ...base, GIVEKIT_WEBHOOK_BACKOFF_MS: "200" }).webhookBackoffMs).toBe(200);
    for (const bad of ["0", "9", "soon", "3600001"]) {
      expect(() => loadConfig({ ...base, GIVEKIT_WEBHOOK_BACKOFF_MS: bad })).toThrow(
        /^GIVEKIT_WEBHOOK_BACKOFF_MS: /,
      );
    }
  });
});
