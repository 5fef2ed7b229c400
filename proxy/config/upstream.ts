/** The fundraising service: where it is, the account's tokens, how long a call may take. */
import * as z from "zod/mini";
import { MAX_TIMEOUT_MS, whole } from "./values";

export interface UpstreamConfig {
  baseUrl: string;
  privateToken: string;
  publicToken: string;
  connectTimeoutMs: number;
  timeoutMs: number;
}

/** Each variable's default ("" = required or optional without one). */
export const UPSTREAM_DEFAULTS = {
  UPSTREAM_BASE_URL: "",
  UPSTREAM_PRIVATE_TOKEN: "",
  UPSTREAM_PUBLIC_TOKEN: "",
  UPSTREAM_CONNECT_TIMEOUT_MS: "3000",
  UPSTREAM_TIMEOUT_MS: "15000",
} as const;

/** Never echoed in an error message. */
export const UPSTREAM_SECRETS = ["UPSTREAM_PRIVATE_TOKEN", "UPSTREAM_PUBLIC_TOKEN"] as const;

// A token goes inside `Token token="…"`: no quotes, spaces or control characters.
const Token = z
  .string()
  .check(
    z.minLength(1, "is required"),
    z.maxLength(512, "is too long"),
    z.regex(/^[\x21\x23-\x7e]+$/, "may hold only visible ASCII characters other than a double quote"),
  );

const HttpUrl = z.string().check(
  z.minLength(1, "is required (the upstream API's base URL, such as http://127.0.0.1:4010)"),
  z.refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === "http:" || url.protocol === "https:") && !url.username && !url.password;
    } catch {
      return false;
    }
  }, "must be an http:// or https:// URL without credentials"),
  // The proxy adds /api/v2/… itself: a URL ending in it sends every call to /api/v2/api/v2/…,
  // which the service answers 404 or 401, read as a bad token.
  z.refine(
    (value) => !URL.canParse(value) || !/\/api\/v2(\/|$)/i.test(new URL(value).pathname),
    "must be the service's root, without /api/v2 (the proxy adds /api/v2/… itself): set it to scheme://host[:port], e.g. https://api.example.org",
  ),
);

export const UpstreamVariablesSchema = z.object({
  UPSTREAM_BASE_URL: HttpUrl,
  UPSTREAM_PRIVATE_TOKEN: Token,
  UPSTREAM_PUBLIC_TOKEN: Token,
  UPSTREAM_CONNECT_TIMEOUT_MS: whole(1, MAX_TIMEOUT_MS),
  UPSTREAM_TIMEOUT_MS: whole(1, MAX_TIMEOUT_MS),
});
export type UpstreamVariables = z.output<typeof UpstreamVariablesSchema>;

export function upstreamConfig(e: UpstreamVariables): UpstreamConfig {
  return {
    baseUrl: e.UPSTREAM_BASE_URL.replace(/\/+$/, ""),
    privateToken: e.UPSTREAM_PRIVATE_TOKEN,
    publicToken: e.UPSTREAM_PUBLIC_TOKEN,
    connectTimeoutMs: e.UPSTREAM_CONNECT_TIMEOUT_MS,
    timeoutMs: e.UPSTREAM_TIMEOUT_MS,
  };
}
