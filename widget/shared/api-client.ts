import { ProblemSchema, type ErrorCode, type Problem } from "../../contract/errors";

export type ApiResult<T> =
  | { ok: true; status: number; data: T; replayed: boolean }
  | { ok: false; status: number; problem: Problem };

/** The widget's own problem when the proxy could not be reached at all. */
function localProblem(code: ErrorCode, status = 0): Problem {
  return { type: "about:blank", title: code, status, code };
}

/** A small JSON client for the proxy's public API; answers are never thrown, always returned. */
export function createApiClient(proxyUrl: string) {
  const base = proxyUrl.replace(/\/+$/, "");

  async function request<T>(path: string, init: RequestInit): Promise<ApiResult<T>> {
    let response: Response;
    try {
      response = await fetch(base + path, { ...init, credentials: "omit" });
    } catch {
      return { ok: false, status: 0, problem: localProblem("network_error") };
    }
    let body: unknown = null;
    try {
      body = await response.json();
    } catch {
      // A body that is not JSON is handled below as an upstream problem.
    }
    if (response.ok) {
      return {
        ok: true,
        status: response.status,
        data: body as T,
        replayed: response.headers.get("Idempotent-Replayed") === "true",
      };
    }
    const problem = ProblemSchema.safeParse(body);
    return {
      ok: false,
      status: response.status,
      problem: problem.success ? problem.data : localProblem("upstream_error", response.status),
    };
  }

  return {
    get: <T>(path: string) => request<T>(path, { method: "GET", headers: { Accept: "application/json" } }),
    post: <T>(path: string, body: unknown, headers: Record<string, string> = {}) =>
      request<T>(path, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json", ...headers },
        body: JSON.stringify(body),
      }),
  };
}
export type ApiClient = ReturnType<typeof createApiClient>;
