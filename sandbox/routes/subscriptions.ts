/** POST /api/v2/subscriptions/subscribe.json (public token): a mobile number onto a list or keyword. */
import { Hono } from "hono";
import { UPSTREAM_MOBILE_PATTERN, UpstreamSubscriptionRequestSchema } from "../../contract/upstream";
import { requireToken } from "../auth";
import { ApiError, type SandboxEnv, type SandboxRuntime, readJsonBody, validate } from "../http";

const given = (value: string | undefined) =>
  value === undefined || value.trim() === "" ? undefined : value.trim();

/** "15550101234" or "5550101234" → "5550101234"; null if it is not 10 or 11 digits. */
export function normalizeMobileNumber(input: string): string | null {
  const match = UPSTREAM_MOBILE_PATTERN.exec(input);
  if (!match) return null;
  if (input.length === 11 && match[1] !== "1") return null;
  return match[2]!;
}

export function subscriptionRoutes(runtime: SandboxRuntime): Hono<SandboxEnv> {
  const app = new Hono<SandboxEnv>();
  app.post(
    "/api/v2/subscriptions/subscribe.json",
    async (c, next) => {
      c.set("envelope", "subscription");
      await next();
    },
    requireToken(runtime, "public"),
    async (c) => {
      const raw = await readJsonBody(c);
      if (raw === undefined) throw new ApiError(400, "validation_failed", "The request needs a JSON body.");
      const body = validate(UpstreamSubscriptionRequestSchema, raw);
      const account = c.get("account");
      const list = given(body.list);
      const keywordName = given(body.keyword);
      const shortcode = given(body.shortcode);

      // Rule 1: a list, or both keyword and shortcode.
      if (list === undefined && (keywordName === undefined || shortcode === undefined)) {
        const field = keywordName !== undefined ? "shortcode" : shortcode !== undefined ? "keyword" : "list";
        throw new ApiError(400, "target_required", "Send list, or keyword and shortcode.", {
          [field]: [
            field === "list"
              ? "Send list, or keyword and shortcode."
              : `Required with ${field === "shortcode" ? "keyword" : "shortcode"}.`,
          ],
        });
      }
      const mobilenumber = normalizeMobileNumber(body.mobilenumber);
      if (mobilenumber === null) {
        throw new ApiError(
          400,
          "invalid_mobilenumber",
          "The mobile number must be 10 digits, or 11 starting with 1.",
          {
            mobilenumber: ["10 digits, or 11 digits starting with 1; digits only."],
          },
        );
      }

      // Rule 2: the list wins when both are sent.
      const listName = list === undefined ? undefined : runtime.ledger.list(account.id, list);
      const keyword =
        list === undefined ? runtime.ledger.keywordByTarget(account.id, shortcode!, keywordName!) : undefined;
      if (list !== undefined && listName === undefined) {
        throw new ApiError(404, "list_not_found", `The account has no list named "${list}".`);
      }
      if (list === undefined && keyword === undefined) {
        throw new ApiError(
          404,
          "keyword_not_found",
          `The account has no keyword ${keywordName} on shortcode ${shortcode}.`,
        );
      }

      const added = runtime.ledger.addSubscription({
        accountId: account.id,
        mobilenumber,
        list: listName ?? null,
        keyword: keyword ?? null,
        firstname: given(body.firstname) ?? null,
        lastname: given(body.lastname) ?? null,
        createdAt: runtime.now().toISOString(),
      });
      const target =
        listName !== undefined ? `the list ${listName}` : `${keyword!.keyword} on ${keyword!.shortcode}`;
      return c.json({
        subscription: {
          status: 200,
          message: added
            ? `Subscribed ${mobilenumber} to ${target}.`
            : `${mobilenumber} is already subscribed to ${target}.`,
          already_subscribed: !added,
        },
      });
    },
  );
  return app;
}
