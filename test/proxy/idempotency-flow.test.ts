// Idempotency-Key through the proxy: one charge per key, whatever the client does.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  CARDS,
  collected,
  donate,
  donationBody,
  storeRows,
  tokenize,
  upstreamCalls,
  useStack,
  DONATE_PATH,
} from "./support";

describe.each(["sqlite", "postgres"] as const)("idempotency of POST /v1/donations (%s store)", (store) => {
  describe("with an instant upstream", () => {
    const ctx = useStack({
      proxy: {
        allowedOrigins: ["https://a.example", "https://b.example"],
        env: { GIVEKIT_RATE_DONATIONS: "100" },
        store,
      },
    });

    it("50 concurrent identical requests with one key → exactly one charge", async () => {
      const token = await tokenize(ctx.api);
      const body = donationBody(token, { amount: "31.00" });
      const key = randomUUID();
      const replies = await Promise.all(Array.from({ length: 50 }, () => donate(ctx.api, body, key)));

      const statuses = new Set(replies.map((reply) => reply.status));
      expect([...statuses].every((status) => status === 200 || status === 409)).toBe(true);
      const first = replies.filter(
        (r) => r.status === 200 && r.headers.get("idempotent-replayed") !== "true",
      );
      expect(first).toHaveLength(1);
      for (const reply of replies.filter((r) => r.status === 200)) {
        expect(reply.text).toBe(first[0]!.text);
      }
      for (const reply of replies.filter((r) => r.status === 409)) {
        expect(reply.json.code).toBe("request_in_progress");
        expect(Number(reply.headers.get("retry-after"))).toBeGreaterThan(0);
      }
      expect(await upstreamCalls(ctx.sandbox, DONATE_PATH)).toBe(1);
      expect(await collected(ctx.sandbox)).toHaveLength(1);
    });

    it("a replay returns the first status and body with Idempotent-Replayed: true, and charges nothing more", async () => {
      const token = await tokenize(ctx.api);
      const body = donationBody(token);
      const key = randomUUID();
      const first = await donate(ctx.api, body, key);
      expect(first.status).toBe(200);
      expect(first.headers.get("idempotent-replayed")).toBeNull();
      // The same body with its keys in another order is the same request.
      const reordered = Object.fromEntries(Object.entries(body).toReversed());
      const again = await donate(ctx.api, reordered, key);
      expect(again.status).toBe(200);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect(again.text).toBe(first.text);
      expect(await upstreamCalls(ctx.sandbox, DONATE_PATH)).toBe(1);
      expect(await collected(ctx.sandbox)).toHaveLength(1);
    });

    it("a declined attempt replays as declined, without asking the upstream again", async () => {
      const token = await tokenize(ctx.api, CARDS.declined);
      const key = randomUUID();
      const first = await donate(ctx.api, donationBody(token), key);
      const again = await donate(ctx.api, donationBody(token), key);
      expect([first.status, again.status]).toEqual([402, 402]);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect(again.headers.get("content-type")).toBe("application/problem+json");
      expect(await upstreamCalls(ctx.sandbox, DONATE_PATH)).toBe(1);
    });

    it("the same key with a different body → 422 idempotency_key_reused; nothing charged for it", async () => {
      const token = await tokenize(ctx.api);
      const key = randomUUID();
      expect((await donate(ctx.api, donationBody(token, { amount: "25.00" }), key)).status).toBe(200);
      const reused = await donate(ctx.api, donationBody(token, { amount: "250.00" }), key);
      expect(reused.status).toBe(422);
      expect(reused.json.code).toBe("idempotency_key_reused");
      expect((await collected(ctx.sandbox)).map((row) => row.amount)).toEqual(["25.00"]);
    });

    it("a missing key → 400 idempotency_key_required; a 300-character key → 400 idempotency_key_invalid", async () => {
      const token = await tokenize(ctx.api);
      const missing = await ctx.api.post("/v1/donations", donationBody(token));
      expect(missing.status).toBe(400);
      expect(missing.json.code).toBe("idempotency_key_required");
      const long = await donate(ctx.api, donationBody(token), "k".repeat(300));
      expect(long.status).toBe(400);
      expect(long.json.code).toBe("idempotency_key_invalid");
      expect(await upstreamCalls(ctx.sandbox, DONATE_PATH)).toBe(0);
    });

    it("keys are scoped by client site: the same key from two sites is two donations", async () => {
      const token = await tokenize(ctx.api);
      const key = randomUUID();
      const a = await donate(ctx.api, donationBody(token), key, { Origin: "https://a.example" });
      const b = await donate(ctx.api, donationBody(token), key, { Origin: "https://b.example" });
      expect([a.status, b.status]).toEqual([200, 200]);
      expect(b.headers.get("idempotent-replayed")).toBeNull();
      expect(await collected(ctx.sandbox)).toHaveLength(2);
    });

    it("the store keeps the key with an HMAC fingerprint and its attempt's state, never a body", async () => {
      const token = await tokenize(ctx.api);
      const key = randomUUID();
      const reply = await donate(ctx.api, donationBody(token), key);
      expect(reply.status).toBe(200);
      const { keys, attempts } = await storeRows(ctx.proxy);
      expect(keys).toHaveLength(1);
      expect(keys[0]).toMatchObject({
        idempotency_key: key,
        state: "done",
        reference: attempts[0]!.reference,
      });
      expect(keys[0]).not.toHaveProperty("body");
      expect(attempts[0]).toMatchObject({
        state: "succeeded",
        transaction_id: reply.json.donation.transaction_id,
      });
      expect(keys[0]!.fingerprint).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(keys)).not.toContain(token);
    });
  });

  describe("with a slow upstream", () => {
    const ctx = useStack({ sandbox: { latencyMs: 400 }, proxy: { store } });

    it("a duplicate while the first is in flight → 409 request_in_progress with Retry-After; later, a replay", async () => {
      const token = await tokenize(ctx.api);
      const key = randomUUID();
      const body = donationBody(token);
      const first = donate(ctx.api, body, key);
      await new Promise((resolve) => setTimeout(resolve, 100));
      const duplicate = await donate(ctx.api, body, key);
      expect(duplicate.status).toBe(409);
      expect(duplicate.json.code).toBe("request_in_progress");
      expect(Number(duplicate.headers.get("retry-after"))).toBeGreaterThan(0);
      expect((await first).status).toBe(200);
      const later = await donate(ctx.api, body, key);
      expect(later.status).toBe(200);
      expect(later.headers.get("idempotent-replayed")).toBe("true");
      expect(await collected(ctx.sandbox)).toHaveLength(1);
    });
  });
});
