/**
 * A consent's life, the same for both SMS opt-ins (POST /v1/subscriptions, and a donation's
 * ticked SMS box): recorded durably before the number is sent anywhere (the number, what it is
 * for, the disclosure word for word and its hash, when, from which address, page and browser),
 * then finished once with what became of what it was given for.
 */
import { createHash } from "node:crypto";
import type { Context } from "hono";
import type { AppEnv } from "./context";
import type { ConsentStore, NewConsent, OutboxEvent } from "./store";

/** Longest user agent and page URL kept in a consent record. */
const CONSENT_FIELD_MAX = 1000;
/** How many disclosures' hashes are remembered: a few per campaign; more are only hashed again. */
const TEXT_HASHES_KEPT = 1000;

/** Every opt-in shows one of a few disclosures: each is hashed once, not on every record. */
const textHashes = new Map<string, string>();

/** The disclosure's SHA-256, in hex. */
function textHash(consentText: string): string {
  let hash = textHashes.get(consentText);
  if (hash === undefined) {
    hash = createHash("sha256").update(consentText).digest("hex");
    if (textHashes.size >= TEXT_HASHES_KEPT) textHashes.clear();
    textHashes.set(consentText, hash);
  }
  return hash;
}

/** Where a consent was given: its request's address, browser and page. */
export interface ConsentSource {
  ip: string;
  userAgent: string | null;
  pageUrl: string | null;
}

/** What the person consented to receive messages for. */
export interface ConsentTarget {
  mobilenumber: string;
  list?: string;
  keyword?: string;
  shortcode?: string;
}

/** A consent on record: `finish(outcome)` records what became of it, once; nobody waits for it. */
export interface ConsentHandle {
  finish(outcome: string): void;
}

/** No consent was given (a donation without the SMS box ticked): finishing it does nothing. */
export const NO_CONSENT: ConsentHandle = { finish: () => undefined };

/**
 * @example
 * const source = consentSource(c); // {ip: "203.0.113.7", userAgent: "Mozilla/5.0 …", pageUrl: "https://shelter.example/give"}
 */
export function consentSource<E extends AppEnv>(c: Context<E>): ConsentSource {
  return {
    ip: c.get("clientIp"),
    userAgent: c.req.header("user-agent")?.slice(0, CONSENT_FIELD_MAX) ?? null,
    pageUrl: c.req.header("referer")?.slice(0, CONSENT_FIELD_MAX) ?? null,
  };
}

/** The record a consent leaves. */
export function consentRecord(
  source: ConsentSource,
  target: ConsentTarget,
  consentText: string,
  consentLocale: string | null = null,
): NewConsent {
  return {
    mobilenumber: target.mobilenumber,
    list: target.list ?? null,
    keyword: target.keyword ?? null,
    shortcode: target.shortcode ?? null,
    consent_text_sha256: textHash(consentText),
    consent_text: consentText,
    consent_locale: consentLocale,
    ip: source.ip,
    user_agent: source.userAgent,
    page_url: source.pageUrl,
  };
}

/**
 * Records a consent (pending), durably: it rejects when the store cannot keep it, and then
 * nothing may be sent. The handle's first `finish` is written, later ones ignored; a write that
 * fails calls `onUnrecorded` (the request's log line says so).
 *
 * @example
 * const consent = await beginConsent(store, consentRecord(source, { mobilenumber, list }, text), () => log({ consentOutcome: "unrecorded" }));
 * consent.finish("subscribed");
 */
export async function beginConsent(
  store: Pick<ConsentStore, "recordConsent" | "finishConsent">,
  consent: NewConsent,
  onUnrecorded: () => void,
  /** Written with the record, in its transaction: its `optin.recorded` (proxy/webhooks). */
  events?: readonly OutboxEvent[],
): Promise<ConsentHandle> {
  const id = await store.recordConsent(consent, events);
  let finished = false;
  return {
    finish(outcome) {
      if (finished) return;
      finished = true;
      void store.finishConsent(id, outcome).catch(onUnrecorded);
    },
  };
}
