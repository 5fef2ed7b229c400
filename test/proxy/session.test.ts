// Sessions: one login shared, a new one when the session expires, and a clean 502 when login fails.
import { describe, expect, it } from "vitest";
import { DEMO } from "../helpers/sandbox";
import {
  CONSENT_TEXT,
  collected,
  donate,
  donationBody,
  tokenize,
  upstreamCalls,
  useStack,
  DONATE_PATH,
  postCard,
} from "./support";
import { FUTURE_EXPIRY } from "../helpers/cards";

const LOGIN_PATH = "/api/v2/users/login_with_auth_token";
const TOKEN_PATH = "/api/v2/donations/create_payment_token";

describe("the upstream session", () => {
  describe("with the demo tokens", () => {
    const ctx = useStack({ sandbox: { sessionTtlS: 1 } });

    it("concurrent first calls share one login", async () => {
      await Promise.all(Array.from({ length: 8 }, () => tokenize(ctx.api)));
      expect(await upstreamCalls(ctx.sandbox, LOGIN_PATH)).toBe(1);
    });

    it("an expired session (401) is renewed once and the call retried: the donor sees nothing of it", async () => {
      const first = await donate(ctx.api, donationBody(await tokenize(ctx.api)));
      expect(first.status).toBe(200);
      const token = await tokenize(ctx.api);
      await new Promise((resolve) => setTimeout(resolve, 1300));
      // The session expired between tokenizing and donating: donate itself is refused with 401.
      const second = await donate(ctx.api, donationBody(token, { amount: "30.00" }));
      expect(second.status).toBe(200);
      const paths = (await ctx.sandbox.requests()).map((request) => request.path);
      expect(paths.slice(-3)).toEqual([DONATE_PATH, LOGIN_PATH, DONATE_PATH]);
      expect(paths.filter((path) => path === LOGIN_PATH)).toHaveLength(2);
      expect((await collected(ctx.sandbox)).map((row) => row.amount).toSorted()).toEqual(["25.00", "30.00"]);
    });

    it("any session call is renewed the same way (tokenizing after expiry)", async () => {
      await tokenize(ctx.api);
      await new Promise((resolve) => setTimeout(resolve, 1300));
      await tokenize(ctx.api);
      const paths = (await ctx.sandbox.requests()).map((request) => request.path);
      expect(paths).toEqual([LOGIN_PATH, TOKEN_PATH, TOKEN_PATH, LOGIN_PATH, TOKEN_PATH]);
    });
  });

  describe("with a private token the upstream refuses", () => {
    const wrong = "demo-private-wrong-000000";
    const ctx = useStack({ proxy: { env: { UPSTREAM_PRIVATE_TOKEN: wrong } } });

    it("→ 502 upstream_auth_failed, with no secret in the answer or the logs; nothing charged", async () => {
      const reply = await postCard(ctx.api, {
        card_number: "4242424242424242",
        cvv: "317",
        expiration_date: FUTURE_EXPIRY,
      });
      expect(reply.status).toBe(502);
      expect(reply.json.code).toBe("upstream_auth_failed");
      expect(reply.text).not.toContain(wrong);
      expect(ctx.proxy.logs.join("\n")).not.toContain(wrong);
      const donation = await donate(ctx.api, donationBody("tok_anything"));
      expect(donation.status).toBe(502);
      expect(donation.json.code).toBe("upstream_auth_failed");
      expect(await ctx.sandbox.transactions()).toEqual([]);
    });
  });

  describe("with a public token the upstream refuses", () => {
    const ctx = useStack({ proxy: { env: { UPSTREAM_PUBLIC_TOKEN: DEMO.hope.privateToken } } });

    it("a subscription → 502 upstream_auth_failed; nobody subscribed", async () => {
      const reply = await ctx.api.post("/v1/subscriptions", {
        mobilenumber: "5550101234",
        list: "Hope Alerts",
        consent: true,
        consent_text: CONSENT_TEXT,
      });
      expect(reply.status).toBe(502);
      expect(reply.json.code).toBe("upstream_auth_failed");
      expect(await ctx.sandbox.subscriptions()).toEqual([]);
    });
  });
});
