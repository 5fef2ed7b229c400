import type { Problem } from "../../contract/error-schemas";
import { isErrorCode, type ErrorCode } from "../../contract/errors";
import { takeEarly } from "./early-answers";
import { isFieldErrors, isObject } from "./checks";
import { readRetryAfter } from "./retry-after";

/**
 * What a call to the proxy came to: its answer, its problem+json, or no answer at all (the
 * proxy could not be reached: offline, blocked, DNS). Never thrown, always returned.
 */
export type ApiResult<T> =
  | { kind: "ok"; data: T }
  | { kind: "problem"; problem: Problem; retryAfterS?: number }
  | { kind: "unreachable" };

/**
 * A problem+json body as contract/errors.ts's Problem. Read by hand (not with ProblemSchema)
 * to keep zod's record and number parsers out of widget.js; the widget only needs `code`
 * and the per-field `errors`, and an answer without a code is an upstream problem.
 */
export function readProblem(body: unknown, status: number): Problem {
  const fields = isObject(body) ? body : {};
  const code: ErrorCode = isErrorCode(fields.code) ? fields.code : "upstream_error";
  return {
    type: typeof fields.type === "string" ? fields.type : "about:blank",
    title: typeof fields.title === "string" ? fields.title : code,
    status,
    code,
    ...(isFieldErrors(fields.errors) && { errors: fields.errors as Problem["errors"] }),
  };
}

/**
 * A small JSON client for the proxy's public API; answers are never thrown, always returned. A GET
 * that widget.js already made (widget/shared/early-answers.ts) takes its answer over; one that failed to
 * arrive is asked again here, as if it had never been made. A GET is sent as widget.js sends it
 * (widget/loader.ts): no credentials, no headers (the proxy answers JSON whatever the Accept).
 */
export function createApiClient(proxyUrl: string) {
  const base = proxyUrl.replace(/\/+$/, "");

  async function request<T>(
    path: string,
    init: RequestInit,
    early?: Promise<Response>,
  ): Promise<ApiResult<T>> {
    const ask = () => fetch(base + path, { ...init, credentials: "omit" });
    let response: Response;
    try {
      response = await (early ? early.catch(ask) : ask());
    } catch {
      return { kind: "unreachable" };
    }
    let body: unknown = null;
    try {
      body = await response.json();
    } catch {
      // A body that is not JSON is handled below as an upstream problem.
    }
    if (response.ok) return { kind: "ok", data: body as T };
    const retryAfterS = readRetryAfter(response);
    return {
      kind: "problem",
      problem: readProblem(body, response.status),
      ...(retryAfterS !== undefined && { retryAfterS }),
    };
  }

  return {
    get: <T>(path: string) => request<T>(path, {}, takeEarly(base + path)),
    post: <T>(path: string, body: unknown, headers: Record<string, string> = {}) =>
      request<T>(path, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json", ...headers },
        body: JSON.stringify(body),
      }),
  };
}
export type ApiClient = ReturnType<typeof createApiClient>;
