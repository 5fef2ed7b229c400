// An unknown outcome settled on a big account: 20,000 gifts of the very amount of the unknown
// donation, about 14 MB of report rows of that amount (before the streamed reports, anything
// over 1 MiB of them left the attempt unknown for good). Money is checked in the sandbox.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { DonationStatusResponseSchema } from "../../../contract/api";
import { donate, donationBody, tokenize, upstreamCalls, useStack } from "../support";

const ENV = {
  UPSTREAM_TIMEOUT_MS: "800",
  GIVEKIT_RECONCILE_INTERVAL_S: "1",
  GIVEKIT_RECONCILE_SETTLE_S: "900",
};

describe("reconciling on an account of 20,000 gifts of one amount", () => {
  const ctx = useStack({ proxy: { env: ENV } });

  it("777.77 charged and never answered → Success with its own transaction, found among 20,000 of 777.77", async () => {
    const built = await fetch(`${ctx.sandbox.url}/_sandbox/bulk`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        shortcode: "71777",
        keyword: "HOPE",
        transactions: 20_000,
        days: 1,
        amount: "777.77",
      }),
    });
    expect(built.status).toBe(200);
    const reply = await donate(
      ctx.api,
      donationBody(await tokenize(ctx.api), { amount: "777.77" }),
      randomUUID(),
    );
    expect(reply.status).toBe(202);
    const reference = reply.json.donation.reference as string;

    let final: unknown;
    await expect
      .poll(
        async () => {
          final = DonationStatusResponseSchema.parse((await ctx.api.get(`/v1/donations/${reference}`)).json);
          return (final as { donation: { status: string } }).donation.status;
        },
        { timeout: 60_000, interval: 500 },
      )
      .toBe("Success");
    // The sandbox's own row for it: the one tagged with the attempt's reference.
    const mine = (await ctx.sandbox.transactions({ status: "collected" })).filter(
      (row) => row.source === `api_via_givekit.${reference}`,
    );
    expect(mine).toHaveLength(1);
    expect(final).toEqual({
      donation: { status: "Success", reference, transaction_id: mine[0]!.transaction_id },
    });
    expect(await upstreamCalls(ctx.sandbox, "/api/v2/donations/donate")).toBe(1);
  }, 90_000);
});
