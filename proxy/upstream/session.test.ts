import { describe, expect, it } from "vitest";
import { createSessionManager } from "./session";

function countingLogin(results: (string | Error)[]) {
  const state = { calls: 0 };
  const login = async () => {
    const result = results[state.calls++] ?? new Error("no more logins");
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (result instanceof Error) throw result;
    return result;
  };
  return { state, login };
}

describe("the session token", () => {
  it("is fetched once and cached", async () => {
    const { state, login } = countingLogin(["s1"]);
    const session = createSessionManager(login);
    expect(await session.get()).toBe("s1");
    expect(await session.get()).toBe("s1");
    expect(state.calls).toBe(1);
  });

  it("concurrent callers share one login", async () => {
    const { state, login } = countingLogin(["s1"]);
    const session = createSessionManager(login);
    const tokens = await Promise.all(Array.from({ length: 20 }, () => session.get()));
    expect(new Set(tokens)).toEqual(new Set(["s1"]));
    expect(state.calls).toBe(1);
  });

  it("a refused token is replaced by one new login, shared by everyone who saw it refused", async () => {
    const { state, login } = countingLogin(["s1", "s2"]);
    const session = createSessionManager(login);
    const stale = await session.get();
    const renewed = await Promise.all(Array.from({ length: 10 }, () => session.renew(stale)));
    expect(new Set(renewed)).toEqual(new Set(["s2"]));
    expect(state.calls).toBe(2);
    // A caller still holding the old token gets the new one without another login.
    expect(await session.renew("s1")).toBe("s2");
    expect(state.calls).toBe(2);
  });

  it("a failed login is not cached: the next caller tries again", async () => {
    const { state, login } = countingLogin([new Error("down"), "s1"]);
    const session = createSessionManager(login);
    await expect(session.get()).rejects.toThrow("down");
    expect(await session.get()).toBe("s1");
    expect(state.calls).toBe(2);
  });
});
