/** Shared HTTP pieces of the sandbox: the Hono env type, errors and the JSON body reader. */
import type { HttpBindings } from "@hono/node-server";
import type { Context } from "hono";
import type * as z from "zod/mini";
import { fieldErrors } from "../contract/error-schemas";
import { BodyTooLargeError, decodeUtf8, readBody } from "../http/body";
import type { Account, Ledger } from "./ledger";

/** Request bodies above this many bytes are refused with 413. */
export const MAX_BODY_BYTES = 64 * 1024;

/** The envelope a failure is wrapped in, so callers of donate and subscribe find their object. */
export type Envelope = "donation" | "subscription" | "none";

export interface SandboxEnv {
  Bindings: Partial<HttpBindings>;
  Variables: { account: Account; envelope: Envelope };
}
export type SandboxContext = Context<SandboxEnv>;

export interface SandboxRuntime {
  ledger: Ledger;
  now: () => Date;
  sessionTtlS: number;
}

/** A refused request: HTTP status, a snake_case code and a message naming the problem. */
export class ApiError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 405 | 413 | 415 | 500,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string[]>,
    /** When false, no donation/subscription envelope: the answer carries no outcome at all. */
    readonly envelope = true,
  ) {
    super(message);
  }
}

/** The JSON body of a failure: always `error`, plus the operation's own object where it has one. */
export function errorBody(error: ApiError, envelope: Envelope): Record<string, unknown> {
  const detail = {
    code: error.code,
    message: error.message,
    ...(error.fields ? { fields: error.fields } : {}),
  };
  const body: Record<string, unknown> = { error: detail };
  if (error.envelope && envelope === "donation") body.donation = { status: "Error", message: error.message };
  if (error.envelope && envelope === "subscription")
    body.subscription = { status: error.status, error: detail };
  return body;
}

/** Parses with a strict schema; unknown fields and wrong types become a 400 naming each field. */
export function validate<T extends z.ZodMiniType>(schema: T, value: unknown): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data as z.infer<T>;
  const fields = fieldErrors(parsed.error.issues);
  const problems = Object.entries(fields).map(
    ([name, messages]) => `${name || "(body)"}: ${messages.join(" ")}`,
  );
  throw new ApiError(400, "validation_failed", `Invalid request. ${problems.join("; ")}`, fields);
}

/**
 * Reads the request body as a JSON object (read straight from the socket, so GET bodies work
 * too). An empty body gives undefined. Too big → 413, not JSON → 415/400, not an object → 400.
 */
export async function readJsonBody(c: SandboxContext): Promise<Record<string, unknown> | undefined> {
  const bytes = await readBody(c, MAX_BODY_BYTES).catch((error: unknown) => {
    throw error instanceof BodyTooLargeError
      ? new ApiError(413, "payload_too_large", `The body is larger than ${MAX_BODY_BYTES} bytes.`)
      : error;
  });
  if (bytes.length === 0) return undefined;
  const type = c.req.header("content-type") ?? "";
  if (!/^application\/json\b/i.test(type)) {
    throw new ApiError(
      415,
      "unsupported_media_type",
      "The body must be JSON, sent as Content-Type: application/json.",
    );
  }
  const text = decodeUtf8(bytes);
  if (text === null) throw new ApiError(400, "malformed_json", "The body is not valid UTF-8.");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ApiError(400, "malformed_json", `The body is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new ApiError(400, "malformed_json", "The body must be a JSON object.");
  }
  return value as Record<string, unknown>;
}

/**
 * Answers `{"<key>": [...items]}` as a stream, a thousand items a chunk, so a list of 50,000
 * is written as the reader takes it rather than as one string.
 */
export function jsonListResponse<T>(key: string, items: readonly T[], map: (item: T) => unknown): Response {
  const encoder = new TextEncoder();
  let at = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at === 0) controller.enqueue(encoder.encode(`{${JSON.stringify(key)}:[`));
      if (at >= items.length) {
        controller.enqueue(encoder.encode("]}"));
        controller.close();
        return;
      }
      const end = Math.min(items.length, at + 1000);
      let text = "";
      for (let index = at; index < end; index++)
        text += (index === 0 ? "" : ",") + JSON.stringify(map(items[index]!));
      at = end;
      controller.enqueue(encoder.encode(text));
    },
  });
  return new Response(body, { status: 200, headers: { "Content-Type": "application/json; charset=UTF-8" } });
}
