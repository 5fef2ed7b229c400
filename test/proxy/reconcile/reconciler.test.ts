// The reconciler over real HTTP: a donation whose answer never came is looked up in the
// sandbox's transactions report and resolved, and the donor learns it from
// GET /v1/donations/{reference}. Money is checked in the sandbox's own report.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { DonationStatusResponseSchema } from "../../../contract/api";
import { collected, donate, donationBody, tokenize, upstreamCalls, useStack, type Client } from "../support";

/** Short, so the never-answering faults end quickly; short settle and interval, so the test does. */
const ENV = {
  UPSTREAM_TIMEOUT_MS: "800",
  GIVEKIT_RECONCILE_INTERVAL_S: "1",
  GIVEKIT_RECONCILE_SETTLE_S: "4",
  GIVEKIT_RATE_DONATIONS: "1000",
  GIVEKIT_RATE_DONATION_STATUS: "1000",
};

/** Asks the route until the donation is no longer Pending (at most `limitMs`). */
async function settled(api: Client, reference: string, limitMs = 20_000) {
  const until = Date.now() + limitMs;
  for (;;) {
    const reply = await api.get(`/v1/donations/${reference}`);
    expect(reply.status).toBe(200);
    const body = DonationStatusResponseSchema.parse(reply.json);
    if (body.donation.status !== "Pending" || Date.now() > until) return body;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe.each(["sqlite", "postgres"] as const)("reconciling unknown outcomes on %s", (store) => {
  const ctx = useStack({ proxy: { env: ENV, store } });

  it("777.77 (charged, never answered) → Success with the report's transaction id", async () => {
    const token = await tokenize(ctx.api);
    const reply = await donate(ctx.api, donationBody(token, { amount: "777.77" }), randomUUID());
    expect(reply.status).toBe(202);
    const reference = reply.json.donation.reference as string;
    const final = await settled(ctx.api, reference);
    const rows = await collected(ctx.sandbox);
    expect(rows).toHaveLength(1);
    expect(final).toEqual({
      donation: { status: "Success", reference, transaction_id: rows[0]!.transaction_id },
    });
    // Nothing else about the donor is told.
    expect(Object.keys(final.donation).toSorted()).toEqual(["reference", "status", "transaction_id"]);
    expect(await upstreamCalls(ctx.sandbox, "/api/v2/donations/donate")).toBe(1);
  });

  it("999.99 (never answered, nothing charged) → NotCharged once the settle window passed", async () => {
    const token = await tokenize(ctx.api);
    const started = Date.now();
    const key = randomUUID();
    const reply = await donate(ctx.api, donationBody(token, { amount: "999.99" }), key);
    expect(reply.status).toBe(202);
    const reference = reply.json.donation.reference as string;
    // Before the settle window: still Pending.
    expect((await ctx.api.get(`/v1/donations/${reference}`)).json.donation.status).toBe("Pending");
    const final = await settled(ctx.api, reference);
    expect(final).toEqual({ donation: { status: "NotCharged", reference } });
    expect(Date.now() - started).toBeGreaterThanOrEqual(4000);
    expect(await ctx.sandbox.transactions()).toEqual([]);
    // A replay of the key now says nothing was taken, and sends nothing again.
    const replay = await donate(ctx.api, donationBody(token, { amount: "999.99" }), key);
    expect(replay.status).toBe(502);
    expect(replay.json.code).toBe("payment_failed");
    expect(await upstreamCalls(ctx.sandbox, "/api/v2/donations/donate")).toBe(1);
  });

  it("two donors, same amount, both unknown → each their own transaction", async () => {
    const references: string[] = [];
    for (let i = 0; i < 2; i++) {
      const token = await tokenize(ctx.api);
      const reply = await donate(ctx.api, donationBody(token, { amount: "777.77" }), randomUUID());
      expect(reply.status).toBe(202);
      references.push(reply.json.donation.reference as string);
    }
    const finals = await Promise.all(references.map((reference) => settled(ctx.api, reference)));
    const rows = await collected(ctx.sandbox);
    expect(rows).toHaveLength(2);
    const ids = finals.map((final) => final.donation.transaction_id);
    expect(finals.map((final) => final.donation.status)).toEqual(["Success", "Success"]);
    expect(new Set(ids).size).toBe(2);
    expect(ids.toSorted()).toEqual(rows.map((row) => row.transaction_id).toSorted());
    // Each transaction is the one its donate tagged with the reference.
    for (const [i, reference] of references.entries()) {
      const row = rows.find((r) => r.transaction_id === ids[i]);
      expect(row?.source).toBe(`api_via_givekit.${reference}`);
    }
  });

  it("two unknown gifts of the same amount from two channels → each its own transaction, its tag kept", async () => {
    const tags = ["spring-gala", "newsletter"];
    const references: string[] = [];
    for (const source of tags) {
      const token = await tokenize(ctx.api);
      const reply = await donate(ctx.api, donationBody(token, { amount: "777.77", source }), randomUUID());
      expect(reply.status).toBe(202);
      references.push(reply.json.donation.reference as string);
    }
    const finals = await Promise.all(references.map((reference) => settled(ctx.api, reference)));
    expect(finals.map((final) => final.donation.status)).toEqual(["Success", "Success"]);
    const rows = await collected(ctx.sandbox);
    expect(rows).toHaveLength(2);
    for (const [i, reference] of references.entries()) {
      const row = rows.find((r) => r.transaction_id === finals[i]!.donation.transaction_id);
      expect(row?.source).toBe(`api_via_givekit.${tags[i]}.${reference}`);
    }
    expect(await upstreamCalls(ctx.sandbox, "/api/v2/donations/donate")).toBe(2);
  });

  it("a malformed or unknown reference → 404 problem", async () => {
    for (const reference of ["gk_nothex", "x".repeat(300), "gk_0123456789abcdef0123"]) {
      const reply = await ctx.api.get(`/v1/donations/${reference}`);
      expect(reply.status).toBe(404);
      expect(reply.headers.get("content-type")).toContain("application/problem+json");
      expect(reply.json.code).toBe("not_found");
    }
  });
});
