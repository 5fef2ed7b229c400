// A donation's ticked SMS box is an opt-in like any other: a consent record with the disclosure
// word for word, whether the donation is charged or declined; unticked, none; without its text
// or its number, a 400 naming the field and nothing charged.
import { describe, expect, it } from "vitest";
import { main } from "../../proxy/cli/main";
import {
  CARDS,
  CONSENT_TEXT,
  collected,
  donate,
  donationBody,
  readStore,
  tokenize,
  useStack,
} from "./support";

const PHONE = "(415) 555-0132";
const withSms = (token: string, fields: Record<string, unknown> = {}) =>
  donationBody(token, {
    sms_opt_in_accepted: true,
    sms_consent_text: CONSENT_TEXT,
    donor: { first_name: "Ana", last_name: "Doe", email: "ana@example.org", phone: PHONE },
    ...fields,
  });

describe("the donate form's SMS box", () => {
  const ctx = useStack();

  it("ticked: a consent record with the exact text, charged or declined; `givekit consents export` lists it", async () => {
    const given = await donate(ctx.api, withSms(await tokenize(ctx.api)), undefined, {
      "User-Agent": "Donor Browser/1.0",
      Referer: "https://shelter.example/give",
    });
    expect(given.status).toBe(200);
    const declined = await donate(
      ctx.api,
      withSms(await tokenize(ctx.api, CARDS.declined), { amount: "30.00" }),
    );
    expect(declined.status).toBe(402);
    await expect
      .poll(() => readStore(ctx.proxy.dataDir).consents.map((record) => record.outcome))
      .toEqual(["donation_succeeded", "donation_declined"]);
    const [record] = readStore(ctx.proxy.dataDir).consents;
    expect(record).toMatchObject({
      mobilenumber: "4155550132",
      keyword: "HOPE",
      shortcode: "71777",
      list: null,
      consent_text: CONSENT_TEXT,
      user_agent: "Donor Browser/1.0",
      page_url: "https://shelter.example/give",
    });
    expect((await collected(ctx.sandbox)).map((row) => row.amount)).toEqual(["25.00"]);

    let out = "";
    const code = await main(
      ["consents", "export"],
      {
        GIVEKIT_DATA_DIR: ctx.proxy.dataDir,
        UPSTREAM_BASE_URL: ctx.sandbox.url,
        UPSTREAM_PRIVATE_TOKEN: "x",
        UPSTREAM_PUBLIC_TOKEN: "y",
      },
      { write: (text: string) => (out += text) },
      { write: () => undefined },
    );
    expect(code).toBe(0);
    expect(out).toContain("4155550132");
    expect(out).toContain(CONSENT_TEXT);
  });

  it("unticked (or off): no consent record", async () => {
    expect(
      (
        await donate(
          ctx.api,
          withSms(await tokenize(ctx.api), { sms_opt_in_accepted: false, sms_consent_text: undefined }),
        )
      ).status,
    ).toBe(200);
    expect((await donate(ctx.api, donationBody(await tokenize(ctx.api), { amount: "26.00" }))).status).toBe(
      200,
    );
    expect(readStore(ctx.proxy.dataDir).consents).toEqual([]);
  });

  it.each([
    ["without the disclosure shown", { sms_consent_text: undefined }, "sms_consent_text"],
    [
      "without a number",
      { donor: { first_name: "Ana", last_name: "Doe", email: "ana@example.org" } },
      "donor.phone",
    ],
  ])("ticked %s → 400 naming the field; nothing charged, nothing recorded", async (_name, fields, field) => {
    const reply = await donate(ctx.api, withSms(await tokenize(ctx.api), fields));
    expect([reply.status, reply.json.code]).toEqual([400, "validation_failed"]);
    expect(reply.json.errors).toHaveProperty([field]);
    expect(await collected(ctx.sandbox)).toEqual([]);
    expect(readStore(ctx.proxy.dataDir).consents).toEqual([]);
  });
});
