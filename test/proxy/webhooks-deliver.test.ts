import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { backoffMs, deliverOnce, isPrivateAddress, MAX_BACKOFF_MS } from "../../proxy/webhooks/deliver";
import { makeEvent } from "../../proxy/webhooks/events";

type Verify = (secret: string, body: string, header: string) => boolean;
async function guideSnippet(): Promise<Verify> {
  const guide = readFileSync(join(__dirname, "../../proxy/GUIDE.md"), "utf8");
  const match = /<!-- webhook-verify-node -->\s*```js\n([\s\S]*?)```/.exec(guide);
  if (!match) throw new Error("proxy/GUIDE.md has no Node verification snippet");
  const file = join(mkdtempSync(join(tmpdir(), "givekit-snippet-")), "verify.mjs");
  writeFileSync(file, match[1]!);
  return ((await import(pathToFileURL(file).href)) as { verifyGivekit: Verify }).verifyGivekit;
}

interface Received {
  body: string;
  signature: string;
  id: string;
}
let server: Server | undefined;
afterEach(() => server?.close());

/** A receiver on 127.0.0.1 answering each request with the next status of `statuses` (then 200). */
async function receiver(statuses: number[], extra: Record<string, string> = {}) {
  const received: Received[] = [];
  server = createServer((req: IncomingMessage, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => {
      received.push({
        body,
        signature: String(req.headers["givekit-signature"]),
        id: String(req.headers["givekit-event-id"]),
      });
      res.writeHead(statuses.shift() ?? 200, extra).end();
    });
  });
  await new Promise<void>((done) => server!.listen(0, "127.0.0.1", done));
  server.unref();
  return { received, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` };
}

const secret = "whsec-deliver-0123456789abcdef";
const event = makeEvent("dedication.made", {
  reference: "r-1",
  campaign_id: "spring",
  kind: "memory",
  honoree_name: "Jane Doe",
  notify_email: "family@example.org",
});

describe("one delivery", () => {
  it("a receiver failing three times then answering 200 gets the event after backoff, signed as the GUIDE checks", async () => {
    const verify = await guideSnippet();
    const { received, url } = await receiver([500, 503, 500]);
    const endpoint = { url, events: ["dedication.made" as const], secret, allow_private: true };
    const outcomes: string[] = [];
    for (let attempt = 0; attempt < 10; attempt++) {
      const result = await deliverOnce(endpoint, event);
      outcomes.push(result.outcome);
      if (result.outcome !== "failed") break;
      await new Promise((wait) => setTimeout(wait, backoffMs(attempt + 1, 5)));
    }
    expect(outcomes).toEqual(["failed", "failed", "failed", "delivered"]);
    expect(received).toHaveLength(4);
    expect(new Set(received.map((r) => r.id))).toEqual(new Set([event.id]));
    const last = received.at(-1)!;
    expect(verify(secret, last.body, last.signature)).toBe(true);
    expect(verify("not-the-secret-0123456789ab", last.body, last.signature)).toBe(false);
    expect(JSON.parse(last.body)).toMatchObject({
      type: "dedication.made",
      version: 1,
      data: { honoree_name: "Jane Doe", notify_email: "family@example.org", kind: "memory" },
    });
  });

  it("does not follow a redirect", async () => {
    const { received, url } = await receiver([302], { location: "http://127.0.0.1:1/elsewhere" });
    const result = await deliverOnce(
      { url, events: ["dedication.made"], secret, allow_private: true },
      event,
    );
    expect(result).toMatchObject({ outcome: "failed", status: 302, reason: "redirect not followed" });
    expect(received).toHaveLength(1);
  });

  it("gives up on a receiver that answers too late, as a failure to retry", async () => {
    const { url } = await receiver([]);
    server!.removeAllListeners("request");
    server!.on("request", (_req, res) => setTimeout(() => res.writeHead(200).end(), 500).unref());
    const result = await deliverOnce(
      { url, events: ["dedication.made"], secret, allow_private: true },
      event,
      {
        timeoutMs: 100,
      },
    );
    expect(result).toMatchObject({ outcome: "failed", reason: "timed out" });
  });

  it("refuses an endpoint resolving to a private address unless the operator allows it", async () => {
    const { received, url } = await receiver([]);
    const refused = await deliverOnce({ url, events: ["dedication.made"], secret }, event);
    expect(refused).toMatchObject({ outcome: "refused" });
    const byName = await deliverOnce(
      { url: "https://hooks.example.org/x", events: ["dedication.made"], secret },
      event,
      {
        resolve: async () => ["93.184.216.34", "10.1.2.3"],
      },
    );
    expect(byName).toMatchObject({ outcome: "refused" });
    expect(received).toHaveLength(0);
    for (const address of [
      "127.0.0.1",
      "10.0.0.8",
      "192.168.1.1",
      "169.254.169.254",
      "::1",
      "fd00::1",
      "::ffff:127.0.0.1",
    ]) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    expect(isPrivateAddress("93.184.216.34")).toBe(false);
  });
});

describe("backoff", () => {
  it("doubles, jitters between half and all of its ceiling, and stops growing at the cap", () => {
    expect(backoffMs(1, 1000, () => 0)).toBe(500);
    expect(backoffMs(1, 1000, () => 1)).toBe(1000);
    expect(backoffMs(4, 1000, () => 1)).toBe(8000);
    expect(backoffMs(40, 1000, () => 1)).toBe(MAX_BACKOFF_MS);
  });
});
