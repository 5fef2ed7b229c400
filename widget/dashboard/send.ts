import { DASHBOARD_FORM_HEADER } from "../../contract/dashboard";

/**
 * Sends a change from a dashboard page as JSON with the page's form token (the dashboard's guard
 * refuses a POST or PUT without it), and reads the answer's body ({} when it has none).
 */
export async function sendChange(
  path: string,
  method: "POST" | "PUT",
  body: unknown,
  formToken: string,
  fetcher: typeof fetch = fetch,
): Promise<{ res: Response; answer: Record<string, unknown> }> {
  const res = await fetcher(path, {
    method,
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", [DASHBOARD_FORM_HEADER]: formToken },
    body: JSON.stringify(body),
  });
  const answer = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  return { res, answer };
}
