/**
 * Webhook signatures: `givekit-signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "${t}.${body}">`,
 * keyed with the endpoint's own secret (proxy/GUIDE.md, "Webhooks"). A receiver checks the HMAC
 * in constant time and refuses a timestamp outside its tolerance, so a captured delivery cannot be
 * replayed later.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export const SIGNATURE_HEADER = "givekit-signature";

/** How far a receiver's clock may be from the proxy's, and how old a delivery may be, by default. */
export const DEFAULT_TOLERANCE_S = 300;

function hmac(secret: string, t: number, body: string): string {
  return createHmac("sha256", secret).update(`${t}.${body}`).digest("hex");
}

/** The header value for a body sent at `t` (unix seconds). */
export function signatureHeader(secret: string, body: string, t: number): string {
  return `t=${t},v1=${hmac(secret, t, body)}`;
}

export type VerifyResult = { ok: true; t: number } | { ok: false; reason: string };

/** What the GUIDE's Node snippet does, for the proxy's own tests and tools. */
export function verifySignature(
  secret: string,
  body: string,
  header: string | null | undefined,
  nowS: number,
  toleranceS = DEFAULT_TOLERANCE_S,
): VerifyResult {
  if (!header) return { ok: false, reason: "no signature" };
  let t = Number.NaN;
  const v1: string[] = [];
  for (const part of header.split(",")) {
    const eq = part.indexOf("=");
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === "t") t = Number(value);
    else if (key === "v1") v1.push(value);
  }
  if (!Number.isInteger(t) || v1.length === 0) return { ok: false, reason: "malformed signature" };
  if (Math.abs(nowS - t) > toleranceS) return { ok: false, reason: "timestamp outside tolerance" };
  const expected = Buffer.from(hmac(secret, t, body), "hex");
  const match = v1.some((candidate) => {
    const given = Buffer.from(candidate, "hex");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  return match ? { ok: true, t } : { ok: false, reason: "signature does not match" };
}
