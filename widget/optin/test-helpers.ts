import { vi } from "vitest";

/** A JSON answer as the proxy gives it. */
export function jsonResponse(status: number, body: unknown): Response {
  const type = status >= 400 ? "application/problem+json" : "application/json";
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": type } });
}

/** A problem+json answer with givekit's `code`. */
export function problem(status: number, code: string, errors?: Record<string, string[]>): Response {
  return jsonResponse(status, {
    type: "about:blank",
    title: code,
    status,
    code,
    ...(errors ? { errors } : {}),
  });
}

/** The answer the proxy gives to a successful opt-in. */
export function subscribed(mobilenumber = "5550101234"): Response {
  return jsonResponse(201, { subscription: { status: "subscribed", mobilenumber } });
}

/** Replaces `fetch` with a stub answering each call in turn, and records what was sent. */
export function stubFetch(...answers: (Response | Error)[]) {
  const calls: { url: string; init: RequestInit; body: Record<string, unknown> }[] = [];
  const fetchStub = vi.fn<typeof fetch>(async (url, init = {}) => {
    calls.push({ url: String(url), init, body: JSON.parse(String(init.body ?? "null")) });
    const answer = answers.shift();
    if (!answer) throw new Error("fetch called more often than the test expected");
    if (answer instanceof Error) throw answer;
    return answer;
  });
  vi.stubGlobal("fetch", fetchStub);
  return { calls, fetchStub };
}
