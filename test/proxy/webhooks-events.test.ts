import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Campaign, DonationRequest } from "../../contract/api";
import { attemptEvents, attemptOutbox, outboxRows } from "../../proxy/webhooks/from-attempt";

const campaign = (
  JSON.parse(readFileSync(join(__dirname, "../../proxy/campaigns.demo.json"), "utf8")) as {
    campaigns: Campaign[];
  }
).campaigns[0]!;
const token = "tok_4111111111111111_secret";
const request = {
  shortcode: campaign.shortcode,
  keyword: campaign.keyword,
  amount: "25.00",
  credit_card_token: token,
  donor: { first_name: "Ada", last_name: "Lovelace", email: "ada@example.org" },
  dedication: { kind: "memory", name: "Jane Doe", notify_email: "family@example.org" },
} as unknown as DonationRequest;
const endpoints = [
  {
    url: "https://crm.example.org/hook",
    events: ["donation.succeeded" as const, "donation.declined" as const],
    secret: "x".repeat(24),
  },
  { url: "https://tribute.example.org/hook", events: ["dedication.made" as const], secret: "y".repeat(24) },
];

describe("the events of a donation's outcome", () => {
  it("a gift with a dedication tells dedication.made with the honoree's name and the e-mail to tell", () => {
    const events = attemptEvents(campaign, request, "ref-1", {
      state: "succeeded",
      transaction_id: "t-9",
      problem_code: null,
    });
    expect(events.map((e) => e.type)).toEqual(["donation.succeeded", "dedication.made"]);
    expect(events[1]).toMatchObject({
      version: 1,
      data: {
        reference: "ref-1",
        kind: "memory",
        honoree_name: "Jane Doe",
        notify_email: "family@example.org",
      },
    });
    expect(events[0]!.data).toMatchObject({
      amount_cents: 2500,
      transaction_id: "t-9",
      donor: { email: "ada@example.org" },
    });
    expect(new Set(events.map((e) => e.id)).size).toBe(2);
    const rows = outboxRows(endpoints, events);
    expect(rows.map((r) => [r.eventType, r.endpoint, r.orderKey])).toEqual([
      ["donation.succeeded", "https://crm.example.org/hook", "ref-1"],
      ["dedication.made", "https://tribute.example.org/hook", "ref-1"],
    ]);
  });

  it("a decline tells donation.declined only to endpoints that asked for it; an unknown outcome's events are held", () => {
    const declined = attemptEvents(campaign, request, "ref-2", {
      state: "declined",
      transaction_id: null,
      problem_code: "card_declined",
    });
    expect(declined.map((e) => e.type)).toEqual(["donation.declined"]);
    expect(outboxRows([endpoints[1]!], declined)).toEqual([]);
    const pending = { state: "unknown", transaction_id: null, problem_code: null } as const;
    const held = attemptOutbox(endpoints, campaign, request, "ref-3", pending);
    expect(held.length).toBeGreaterThan(0);
    expect(held.every((row) => row.held === true && row.orderKey === "ref-3")).toBe(true);
    expect(held.map((row) => row.eventType)).toContain("donation.succeeded");
    const charged = { state: "succeeded", transaction_id: "100001", problem_code: null } as const;
    expect(attemptOutbox(endpoints, campaign, request, "ref-4", charged).some((row) => row.held)).toBe(false);
  });

  it("no payload holds the card token, a card number or a CVV", () => {
    const all = [
      ...attemptEvents(campaign, request, "ref-1", {
        state: "succeeded",
        transaction_id: "t-9",
        problem_code: null,
      }),
      ...attemptEvents(campaign, request, "ref-2", {
        state: "declined",
        transaction_id: null,
        problem_code: "card_declined",
      }),
    ];
    for (const row of outboxRows(endpoints, all)) {
      expect(row.body).not.toContain(token);
      // A card number standing alone (a random reference may hold a long digit run: no number).
      expect(row.body).not.toMatch(/(?<![\w-])\d(?:[ -]?\d){12,18}(?![\w-])/);
      expect(row.body).not.toMatch(/cvv|credit_card|token/i);
    }
  });
});
