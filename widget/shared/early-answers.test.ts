import { afterEach, describe, expect, it, vi } from "vitest";
import { createApiClient } from "./api-client";
import { useEarlyAnswers } from "./early-answers";

const PROXY = "https://give.example.org";
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

/** widget.js's side: answers by URL, each taken once. */
function earlyAnswers(answers: Record<string, Promise<Response>>) {
  const left = new Map(Object.entries(answers));
  useEarlyAnswers((url) => {
    const answer = left.get(url);
    left.delete(url);
    return answer;
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
  useEarlyAnswers(() => undefined);
});

describe("a GET widget.js made early is taken over, never made twice", () => {
  it("the client reads the early answer and asks the network nothing", async () => {
    const fetch = vi.fn<typeof globalThis.fetch>();
    vi.stubGlobal("fetch", fetch);
    earlyAnswers({ [`${PROXY}/v1/campaigns/71777/HOPE`]: Promise.resolve(json({ currency: "USD" })) });
    const api = createApiClient(PROXY);
    expect(await api.get("/v1/campaigns/71777/HOPE")).toEqual({ kind: "ok", data: { currency: "USD" } });
    expect(fetch).not.toHaveBeenCalled();
    // Taken once: a second form of the same campaign asks for itself.
    fetch.mockResolvedValue(json({ currency: "CAD" }));
    expect(await api.get("/v1/campaigns/71777/HOPE")).toEqual({ kind: "ok", data: { currency: "CAD" } });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it("an early answer that is a problem is the answer: a campaign not served is not asked again", async () => {
    const fetch = vi.fn<typeof globalThis.fetch>();
    vi.stubGlobal("fetch", fetch);
    earlyAnswers({
      [`${PROXY}/v1/campaigns/71777/NOPE`]: Promise.resolve(json({ code: "campaign_not_served" }, 404)),
    });
    const result = await createApiClient(PROXY).get("/v1/campaigns/71777/NOPE");
    expect(result).toMatchObject({ kind: "problem", problem: { status: 404, code: "campaign_not_served" } });
    expect(fetch).not.toHaveBeenCalled();
  });

  it("an early request that failed is made again, as the form would have made it", async () => {
    const fetch = vi.fn<typeof globalThis.fetch>().mockResolvedValue(json({ currency: "USD" }));
    vi.stubGlobal("fetch", fetch);
    earlyAnswers({ [`${PROXY}/v1/campaigns/71777/HOPE`]: Promise.reject(new TypeError("Failed to fetch")) });
    expect(await createApiClient(PROXY).get("/v1/campaigns/71777/HOPE")).toEqual({
      kind: "ok",
      data: { currency: "USD" },
    });
    expect(fetch).toHaveBeenCalledWith(`${PROXY}/v1/campaigns/71777/HOPE`, { credentials: "omit" });
  });

  it("failed twice, it is no answer at all (the form's polite note), never a thrown error", async () => {
    vi.stubGlobal("fetch", vi.fn<typeof globalThis.fetch>().mockRejectedValue(new TypeError("offline")));
    earlyAnswers({ [`${PROXY}/v1/campaigns/71777/HOPE`]: Promise.reject(new TypeError("offline")) });
    expect(await createApiClient(PROXY).get("/v1/campaigns/71777/HOPE")).toEqual({ kind: "unreachable" });
  });
});
