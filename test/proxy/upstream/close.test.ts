// The upstream client's close: calls in flight end at once (a second stop signal relies on it),
// and many calls at once do not trip Node's listener-leak warning on the signal they share.
import { afterEach, describe, expect, it } from "vitest";
import { createUpstreamClient } from "../../../proxy/upstream/client";
import { DEMO, startSandbox, type SandboxHandle } from "../../helpers/sandbox";
import { slowDonations } from "../../helpers/slow-upstream";
import { FUTURE_EXPIRY } from "../../helpers/cards";

let sandbox: SandboxHandle | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

const clientOf = (url: string) =>
  createUpstreamClient({
    baseUrl: url,
    privateToken: DEMO.hope.privateToken,
    publicToken: DEMO.hope.publicToken,
    connectTimeoutMs: 3000,
    timeoutMs: 15_000,
  });

describe("the upstream client's close", () => {
  it("ends a donate in flight at once (its own connection), with an upstream that answers it after 10 s", async () => {
    sandbox = await startSandbox();
    const slow = await slowDonations(sandbox.url, 10_000);
    try {
      const upstream = clientOf(slow.url);
      const made = await upstream.createPaymentToken({
        card_number: "4242424242424242",
        cvv: "317",
        expiration_date: FUTURE_EXPIRY,
      });
      if (made.kind !== "created") throw new Error(`no token: ${made.kind}`);
      const call = upstream
        .donate({
          shortcode_string: "71777",
          keyword_string: "HOPE",
          amount: "25.00",
          credit_card_token: made.token,
        })
        .then(
          (outcome) => outcome,
          (error: unknown) => error,
        );
      await new Promise((resolve) => setTimeout(resolve, 300));
      const closedAt = performance.now();
      upstream.close();
      const ended = await call;
      expect(performance.now() - closedAt).toBeLessThan(1000);
      // Sent and cut: an outcome nobody knows, never a decline nor a success.
      expect(ended).toMatchObject({ kind: "unknown" });
    } finally {
      await slow.close();
    }
  });

  it("30 calls at once: no MaxListenersExceededWarning", async () => {
    sandbox = await startSandbox();
    const upstream = clientOf(sandbox.url);
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on("warning", onWarning);
    try {
      await Promise.all(
        Array.from({ length: 30 }, () => upstream.subscribe({ mobilenumber: "0", list: "givekit test" })),
      );
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("warning", onWarning);
      upstream.close();
    }
    expect(warnings).not.toContain("MaxListenersExceededWarning");
  });
});
