import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ApiClient, ApiResult } from "../../shared/api-client";
import { createFormState } from "../../shared/form-state";
import type { TokenResult } from "../card/card-port";
import type { DonateField, FieldProblem } from "../base/fields";
import type { DonateEnd, DonateFailure } from "../base/status";
import {
  BREAKER_FIRST_RETRY_MS,
  BREAKER_PATIENCE_MS,
  BREAKER_RETRY_MS,
  createAttempt,
  FOLLOW_FIRST_MS,
  type Gift,
} from "./attempt";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const problem = (status: number, code: string, retryAfterS?: number): ApiResult<unknown> => ({
  kind: "problem",
  problem: { type: "about:blank", title: code, status, code: code as never },
  ...(retryAfterS !== undefined && { retryAfterS }),
});

/** A proxy answering each post and get from its own list, and what it was sent. */
function fakeProxy(posts: ApiResult<unknown>[], gets: ApiResult<unknown>[] = []) {
  const sent: { body: Record<string, unknown>; key: string }[] = [];
  const api = {
    post: async (_path: string, body: Record<string, unknown>, headers: Record<string, string>) => {
      sent.push({ body, key: headers["Idempotency-Key"]! });
      return posts.shift()!;
    },
    get: async () => gets.shift() ?? { kind: "unreachable" },
  } as unknown as ApiClient;
  return { api, sent };
}

function attemptWith(proxy: ReturnType<typeof fakeProxy>) {
  let tokens = 0;
  const card = {
    tokenize: vi.fn<() => Promise<TokenResult>>(async () => ({
      ok: true as const,
      token: `tok_${++tokens}`,
      brand: "visa",
      last4: "4242",
    })),
    reset: vi.fn<() => void>(),
  };
  const form = createFormState<DonateField, FieldProblem, DonateFailure, DonateEnd>(
    ["amount", "card"],
    { card_declined: "declined" },
    "failed",
  );
  const attempt = createAttempt({ api: proxy.api, card, form });
  return { attempt, card, form };
}

const GIFT: Gift = {
  request: {
    shortcode: "71777",
    keyword: "HOPE",
    amount: "25.00",
    donor: { first_name: "Ada", last_name: "L", email: "a@example.org" },
  },
  fingerprint: "gift-1",
  totalCents: 2500,
  frequency: "once",
};
const CHARGED: ApiResult<unknown> = {
  kind: "ok",
  data: {
    donation: {
      status: "Success",
      message: "ok",
      transaction_id: "T-9",
      amount: "25.00",
      fee_amount: "0.00",
      recurring_frequency: null,
    },
  },
};
/** A card held at an open breaker, told to come back in `retryAfterS`. */
const heldFor = (retryAfterS: number) => problem(429, "rate_limited", retryAfterS);
const PENDING: ApiResult<unknown> = {
  kind: "ok",
  data: { donation: { status: "Pending", reference: "att_1" } },
};

describe("the attempt model", () => {
  it("a card token the proxy wants made again is made once more by the frame, and the gift sent again, once", async () => {
    const proxy = fakeProxy([problem(403, "card_check_required"), CHARGED]);
    const { attempt, card, form } = attemptWith(proxy);
    form.start();
    expect(await attempt.send(GIFT)).toEqual({ kind: "success" });
    expect(card.tokenize).toHaveBeenCalledTimes(2);
    expect(proxy.sent.map((call) => call.body.credit_card_token)).toEqual(["tok_1", "tok_2"]);
    // Twice in a row is not looped on: the donor is told.
    const twice = fakeProxy([problem(403, "card_check_required"), problem(403, "card_check_required")]);
    const again = attemptWith(twice);
    again.form.start();
    expect(await again.attempt.send(GIFT)).toMatchObject({ kind: "failed", code: "card_check_required" });
    expect(twice.sent).toHaveLength(2);
  });

  it("after an answer that decided nothing, the same gift goes again with the same key and card token", async () => {
    const proxy = fakeProxy([problem(503, "upstream_unavailable"), { kind: "unreachable" }, CHARGED]);
    const { attempt, card, form } = attemptWith(proxy);
    for (let i = 0; i < 3; i++) {
      form.start();
      await attempt.send(GIFT);
    }
    expect(card.tokenize).toHaveBeenCalledTimes(1);
    expect(new Set(proxy.sent.map((call) => call.key)).size).toBe(1);
    expect(proxy.sent.map((call) => call.body.credit_card_token)).toEqual(["tok_1", "tok_1", "tok_1"]);
    expect(form.status.value).toEqual({
      kind: "success",
      totalCents: 2500,
      frequency: "once",
      transactionId: "T-9",
    });
    expect(card.reset).toHaveBeenCalledTimes(1);
  });

  it("waits through an open circuit breaker saying it is checking, then sends the very same gift again by itself", async () => {
    const held = problem(429, "rate_limited");
    const proxy = fakeProxy([held, held, CHARGED]);
    const { attempt, card, form } = attemptWith(proxy);
    form.start();
    const result = attempt.send(GIFT);
    await vi.advanceTimersByTimeAsync(1);
    expect(form.status.value).toEqual({ kind: "submitting", checking: true });
    expect(proxy.sent).toHaveLength(1);
    // The first time after a moment (a person comes back: the proxy lets a newcomer through then), then less often.
    await vi.advanceTimersByTimeAsync(BREAKER_FIRST_RETRY_MS);
    expect(proxy.sent).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(BREAKER_RETRY_MS / 2);
    expect(proxy.sent).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(BREAKER_RETRY_MS / 2);
    expect(await result).toEqual({ kind: "success" });
    // One card token, one key: a gift held and sent again can be charged once only.
    expect(card.tokenize).toHaveBeenCalledTimes(1);
    expect(new Set(proxy.sent.map((call) => call.key)).size).toBe(1);
    expect(proxy.sent.map((call) => call.body.credit_card_token)).toEqual(["tok_1", "tok_1", "tok_1"]);
  });

  it("comes back when the proxy's Retry-After says, within 2 and 15 s: the time left in the breaker's open period", async () => {
    const proxy = fakeProxy([heldFor(2), heldFor(4), heldFor(60), heldFor(0), CHARGED]);
    const { attempt, form } = attemptWith(proxy);
    form.start();
    const result = attempt.send(GIFT);
    const sentAfter = async (ms: number) => {
      await vi.advanceTimersByTimeAsync(ms - 1);
      const before = proxy.sent.length;
      await vi.advanceTimersByTimeAsync(1);
      return [before, proxy.sent.length];
    };
    await vi.advanceTimersByTimeAsync(1);
    expect(await sentAfter(2000 - 1)).toEqual([1, 2]);
    // 4 s left in the open period: 4 s, not BREAKER_RETRY_MS.
    expect(await sentAfter(4000)).toEqual([2, 3]);
    // Never longer than BREAKER_RETRY_MS, never sooner than BREAKER_FIRST_RETRY_MS.
    expect(await sentAfter(BREAKER_RETRY_MS)).toEqual([3, 4]);
    expect(await sentAfter(BREAKER_FIRST_RETRY_MS)).toEqual([4, 5]);
    expect(await result).toEqual({ kind: "success" });
    expect(new Set(proxy.sent.map((call) => call.key)).size).toBe(1);
  });

  it("a card the frame's tokenization found held waits the Retry-After the frame passed on", async () => {
    const proxy = fakeProxy([CHARGED]);
    const { attempt, card, form } = attemptWith(proxy);
    card.tokenize.mockResolvedValueOnce({ ok: false, code: "rate_limited", retryAfterS: 7 });
    form.start();
    const result = attempt.send(GIFT);
    await vi.advanceTimersByTimeAsync(6999);
    expect(card.tokenize).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await result).toEqual({ kind: "success" });
    expect(card.tokenize).toHaveBeenCalledTimes(2);
  });

  it("a card the frame could not tokenize behind an open breaker is tokenized again after the wait", async () => {
    const proxy = fakeProxy([CHARGED]);
    const { attempt, card, form } = attemptWith(proxy);
    card.tokenize.mockResolvedValueOnce({ ok: false, code: "rate_limited" });
    form.start();
    const result = attempt.send(GIFT);
    await vi.advanceTimersByTimeAsync(BREAKER_FIRST_RETRY_MS);
    expect(await result).toEqual({ kind: "success" });
    expect(card.tokenize).toHaveBeenCalledTimes(2);
    expect(proxy.sent).toHaveLength(1);
  });

  it("gives up waiting after BREAKER_PATIENCE_MS and tells the donor to try again later", async () => {
    const proxy = fakeProxy(Array.from({ length: 50 }, () => problem(429, "rate_limited")));
    const { attempt, form } = attemptWith(proxy);
    form.start();
    const result = attempt.send(GIFT);
    await vi.advanceTimersByTimeAsync(BREAKER_PATIENCE_MS);
    expect(await result).toEqual({ kind: "failed", code: "rate_limited" });
    expect(form.status.value).toMatchObject({ kind: "failed", code: "rate_limited" });
    // The first try, one after BREAKER_FIRST_RETRY_MS, then one each BREAKER_RETRY_MS for as long as the patience allows.
    expect(proxy.sent).toHaveLength(
      2 + Math.floor((BREAKER_PATIENCE_MS - BREAKER_FIRST_RETRY_MS) / BREAKER_RETRY_MS),
    );
  });

  it("after a decline, or for a changed gift, the next try is new: a new key and a new card token", async () => {
    const proxy = fakeProxy([problem(402, "card_declined"), problem(503, "upstream_unavailable"), CHARGED]);
    const { attempt, card, form } = attemptWith(proxy);
    form.start();
    expect(await attempt.send(GIFT)).toEqual({ kind: "failed", code: "card_declined" });
    expect(form.status.value).toMatchObject({ kind: "failed", failure: "declined" });
    form.start();
    await attempt.send(GIFT);
    form.start();
    await attempt.send({ ...GIFT, fingerprint: "gift-2" });
    expect(card.tokenize).toHaveBeenCalledTimes(3);
    expect(new Set(proxy.sent.map((call) => call.key)).size).toBe(3);
  });

  it("follows a Pending gift up, backing off through no answer and a 503, to its Success", async () => {
    const proxy = fakeProxy(
      [PENDING],
      [
        { kind: "unreachable" },
        problem(503, "upstream_unavailable"),
        { kind: "ok", data: { donation: { status: "Success", reference: "att_1", transaction_id: "T-10" } } },
      ],
    );
    const { attempt, form } = attemptWith(proxy);
    form.start();
    expect(await attempt.send(GIFT)).toEqual({ kind: "pending" });
    const final = attempt.follow();
    await vi.advanceTimersByTimeAsync(FOLLOW_FIRST_MS * (1 + 2 + 4));
    expect(await final).toBe("Success");
    expect(form.status.value).toEqual({
      kind: "success",
      totalCents: 2500,
      frequency: "once",
      transactionId: "T-10",
    });
  });

  it("stops following when told (the element is gone), and when the proxy no longer knows the reference", async () => {
    const proxy = fakeProxy([PENDING, PENDING], [problem(404, "not_found")]);
    const { attempt, form } = attemptWith(proxy);
    form.start();
    await attempt.send(GIFT);
    const stopped = attempt.follow();
    attempt.stopFollowing();
    await vi.advanceTimersByTimeAsync(FOLLOW_FIRST_MS * 10);
    expect(await Promise.race([stopped, Promise.resolve("still waiting")])).toBe("still waiting");
    const second = attempt.follow();
    await vi.advanceTimersByTimeAsync(FOLLOW_FIRST_MS);
    expect(await second).toBeNull();
    expect(form.status.value).toMatchObject({ kind: "pending", check: "notFound" });
  });
});
