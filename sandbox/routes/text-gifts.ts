/**
 * POST /_sandbox/text-gifts (sandbox only, no auth): a gift texted to a keyword, as the real
 * service records one after the texter confirms it on their phone bill or card: a collected row in
 * the transactions report beside the gifts given through forms, so walls and totals show both.
 */
import { Hono } from "hono";
import * as z from "zod/mini";
import { toCents } from "../../contract/money";
import { PositiveAmountSchema } from "../../contract/money-schemas";
import { normalizeMobile } from "../../contract/phone";
import { attribute } from "../donate";
import { ApiError, type SandboxEnv, type SandboxRuntime, readJsonBody, validate } from "../http";

/** The source a texted gift's row carries (a form's gift carries `api` or `api_via_<source>`). */
export const TEXT_GIFT_SOURCE = "sms";
/** Its transaction_type: a gift by text message. */
export const TEXT_GIFT_TYPE = "text_donation";

const Name = z.optional(z.nullable(z.string().check(z.maxLength(500))));
const TextGiftSchema = z.strictObject({
  shortcode: z.string().check(z.maxLength(32)),
  keyword: z.string().check(z.maxLength(32)),
  amount: PositiveAmountSchema,
  /** The number the gift was texted from (10 or 11 digits, or any form normalizeMobile reads). */
  phone: z.string().check(z.maxLength(32)),
  first_name: Name,
  last_name: Name,
  anonymous: z.optional(z.boolean()),
  /** As a form's pledge_wall: only a gift with true appears on a wall. */
  pledge_wall: z.optional(z.boolean()),
  peer_fundraiser_id: z.optional(z.string().check(z.maxLength(64))),
  peer_fundraiser_team_id: z.optional(z.string().check(z.maxLength(64))),
});

export function textGiftRoutes(runtime: SandboxRuntime): Hono<SandboxEnv> {
  return new Hono<SandboxEnv>().post("/_sandbox/text-gifts", async (c) => {
    const body = validate(TextGiftSchema, (await readJsonBody(c)) ?? {});
    const phone = normalizeMobile(body.phone);
    if (phone === null) {
      throw new ApiError(400, "validation_failed", "phone: a US or Canadian mobile number.", {
        phone: ["A US or Canadian mobile number."],
      });
    }
    const keyword = runtime.ledger.keywordAnywhere(body.shortcode, body.keyword);
    if (!keyword) {
      throw new ApiError(
        404,
        "keyword_not_found",
        `No keyword ${body.keyword} on shortcode ${body.shortcode}.`,
      );
    }
    const attribution = attribute(
      runtime.ledger,
      { id: keyword.accountId, name: "" },
      keyword,
      body.peer_fundraiser_id,
      body.peer_fundraiser_team_id,
    );
    const cents = toCents(body.amount);
    const row = runtime.ledger.recordTransaction({
      accountId: keyword.accountId,
      keyword,
      // The keyword's default form, as bulk rows carry: the text flow's confirmation page.
      formId: runtime.ledger.forms(keyword.id).find((form) => form.isDefault)?.id ?? "",
      status: "collected",
      transactionType: TEXT_GIFT_TYPE,
      recurringFrequency: null,
      donationCents: cents,
      feeCents: 0,
      feeRate: null,
      ...attribution,
      source: TEXT_GIFT_SOURCE,
      brand: "carrier",
      last4: "",
      anonymous: body.anonymous ?? false,
      firstName: body.first_name ?? null,
      lastName: body.last_name ?? null,
      email: null,
      phone,
      address: { street_address: null, city: null, state: null, zip: null, postal_code: null, country: null },
      memo: null,
      smsOptInAccepted: false,
      pledgeWall: body.pledge_wall ?? false,
      authorizationCode: null,
      createdAt: runtime.now().toISOString(),
    });
    return c.json(
      { transaction_id: row.transaction_id, status: row.status, created_at: row.created_at },
      201,
    );
  });
}
