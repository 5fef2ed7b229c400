// POST /_sandbox/text-gifts: a texted gift shows in the transactions report beside the form gifts.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type SandboxHandle, startSandbox } from "../helpers/sandbox";
import { call } from "./support";

describe("texted gifts (sandbox only)", () => {
  let sandbox: SandboxHandle;
  beforeEach(async () => {
    sandbox = await startSandbox();
  });
  afterEach(() => sandbox.close());

  it("records a collected row in the keyword's report, with the texter's number and no card", async () => {
    const answer = await call(sandbox.url, "/_sandbox/text-gifts", {
      body: {
        shortcode: "71777",
        keyword: "hope",
        amount: "10.00",
        phone: "(202) 555-0143",
        first_name: "Tomás",
        last_name: "Reyes",
        pledge_wall: true,
        peer_fundraiser_id: "101",
      },
    });
    expect(answer.status).toBe(201);
    const rows = await sandbox.transactions({ keyword: "HOPE" });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      transaction_id: answer.json.transaction_id,
      status: "collected",
      transaction_type: "text_donation",
      source: "sms",
      amount: "10.00",
      donation_amount: "10.00",
      phone: "2025550143",
      first_name: "Tomás",
      last_name: "Reyes",
      pledge_wall: true,
      anonymous: false,
      peer_fundraiser_id: "101",
      peer_fundraiser_team_id: "11",
      email: null,
    });
    const totals = await call(sandbox.url, "/_sandbox/totals?shortcode=71777&keyword=HOPE", {
      method: "GET",
    });
    expect(totals.json).toMatchObject({ raised: "10.00", collected: 1, donors: 1 });
  });

  it("refuses a bad amount, a bad number, an unknown field or keyword, and records nothing", async () => {
    const cases: [Record<string, unknown>, number, string][] = [
      [{ amount: "0.00" }, 400, "amount"],
      [{ amount: "ten" }, 400, "amount"],
      [{ phone: "12" }, 400, "phone"],
      [{ card_number: "4242424242424242" }, 400, "card_number"],
      [{ keyword: "NOPE" }, 404, ""],
      [{ peer_fundraiser_id: "201" }, 400, "peer_fundraiser_id"],
    ];
    for (const [change, status, field] of cases) {
      const answer = await call(sandbox.url, "/_sandbox/text-gifts", {
        body: { shortcode: "71777", keyword: "HOPE", amount: "5.00", phone: "2025550143", ...change },
      });
      expect([answer.status, field ? answer.text.includes(field) : true]).toEqual([status, true]);
    }
    expect(await sandbox.transactions({ keyword: "HOPE" })).toEqual([]);
  });
});
