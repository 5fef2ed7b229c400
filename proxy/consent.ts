/**
 * A consent record as both SMS opt-ins leave it (POST /v1/subscriptions, and a donation's ticked
 * SMS box): the number, what it is for, the disclosure word for word and its hash, when, from
 * which address, page and browser.
 */
import { createHash } from "node:crypto";
import type { Context } from "hono";
import type { AppEnv } from "./context";
import type { NewConsent } from "./store";

/** Longest user agent and page URL kept in a consent record. */
const CONSENT_FIELD_MAX = 1000;

/**
 * @example
 * await store.recordConsent(consentOf(c, { mobilenumber: "4155550132", list: "Hope Alerts" }, text));
 */
export function consentOf<E extends AppEnv>(
  c: Context<E>,
  target: { mobilenumber: string; list?: string; keyword?: string; shortcode?: string },
  consentText: string,
): NewConsent {
  return {
    mobilenumber: target.mobilenumber,
    list: target.list ?? null,
    keyword: target.keyword ?? null,
    shortcode: target.shortcode ?? null,
    consent_text_sha256: createHash("sha256").update(consentText).digest("hex"),
    consent_text: consentText,
    ip: c.get("clientIp"),
    user_agent: c.req.header("user-agent")?.slice(0, CONSENT_FIELD_MAX) ?? null,
    page_url: c.req.header("referer")?.slice(0, CONSENT_FIELD_MAX) ?? null,
  };
}
