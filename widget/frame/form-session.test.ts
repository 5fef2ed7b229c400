import { afterEach, describe, expect, it, vi } from "vitest";
import { openFormSession } from "./form-session";

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** The proxy's POST /v1/form-sessions: answers in turn from `replies` (null: the network fails). */
function proxyAnswering(replies: (object | number | null)[]) {
  const calls: unknown[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit) => {
      expect(url).toBe("/v1/form-sessions");
      calls.push(JSON.parse(String(init.body)));
      const reply = replies.shift();
      if (reply === null || reply === undefined) throw new TypeError("network");
      if (typeof reply === "number") return new Response("{}", { status: reply });
      return new Response(JSON.stringify(reply), { status: 201 });
    }),
  );
  return calls;
}

describe("the card frame's form session", () => {
  it("is asked for once opened (not before), and renewed at half its life with the one it has", async () => {
    vi.useFakeTimers();
    const calls = proxyAnswering([
      { form_session: "fs-1", expires_in_s: 600 },
      { form_session: "fs-1b", expires_in_s: 600 },
    ]);
    const session = openFormSession();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toEqual([]);
    session.open();
    session.open();
    expect(await session.current()).toBe("fs-1");
    expect(calls).toEqual([{}]);
    await vi.advanceTimersByTimeAsync(300_000);
    expect(calls).toEqual([{}, { renew: "fs-1" }]);
    expect(await session.current()).toBe("fs-1b");
  });

  it("one the proxy could not give is asked for again a little later; until then there is none", async () => {
    vi.useFakeTimers();
    const calls = proxyAnswering([null, 429, { form_session: "fs-2", expires_in_s: 600 }]);
    const session = openFormSession();
    expect(await session.current()).toBeNull();
    await vi.advanceTimersByTimeAsync(3000);
    expect(await session.current()).toBeNull();
    await vi.advanceTimersByTimeAsync(3000);
    expect(await session.current()).toBe("fs-2");
    expect(calls).toHaveLength(3);
  });
});
