// The upstream's alert looks at the upstream by logging in: GIVEKIT_UPSTREAM_WATCH_S sets how
// often (twice as often while it fails), which is what the alert costs the nonprofit's account in
// logins. A fake clock runs the minutes; the logins are counted as the upstream would see them.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { UpstreamUnreachableError } from "../../proxy/upstream/errors";
import { watchUpstream, type Alerts } from "../../proxy/webhooks/alerts";

function watched(lookMs: number | undefined) {
  const upstream = { logins: 0, down: false };
  const told: { at: number; since: string }[] = [];
  const alerts = {
    tell: async (_type: string, data: { since: string }) =>
      void told.push({ at: Date.now(), since: data.since }),
  } as unknown as Alerts;
  const { timer } = watchUpstream({
    alerts,
    lookMs,
    upstream: {
      login: async () => {
        upstream.logins++;
        if (upstream.down) throw new UpstreamUnreachableError("connect ECONNREFUSED");
      },
    },
  });
  return { upstream, told, stop: () => clearInterval(timer) };
}

describe("watchUpstream", () => {
  beforeEach(() => void vi.useFakeTimers({ now: 0 }));
  afterEach(() => void vi.useRealTimers());

  it("logs in once a look (every 10 s by default, twice as often while down); tells the alert a minute after the last answer", async () => {
    const { upstream, told, stop } = watched(undefined);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(upstream.logins).toBe(6);
    upstream.down = true;
    await vi.advanceTimersByTimeAsync(59_000);
    expect(told).toEqual([]);
    // The first look after it went down (at 70 s) fails: from then on a look every 5 s.
    expect(upstream.logins).toBe(6 + 10);
    await vi.advanceTimersByTimeAsync(6000);
    expect(told.length).toBeGreaterThan(0);
    expect(told[0]!.since).toBe(new Date(60_000).toISOString());
    expect(told[0]!.at).toBeGreaterThanOrEqual(120_000);
    expect(told[0]!.at).toBeLessThanOrEqual(125_000);
    stop();
  });

  it("GIVEKIT_UPSTREAM_WATCH_S=30: a login every 30 s, still told within a minute and 15 s", async () => {
    const { upstream, told, stop } = watched(30_000);
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(upstream.logins).toBe(120);
    upstream.down = true;
    await vi.advanceTimersByTimeAsync(75_000);
    expect(told.length).toBeGreaterThan(0);
    expect(told[0]!.at - 3_600_000).toBe(60_000);
    stop();
  });
});
