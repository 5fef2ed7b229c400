import { describe, expect, it } from "vitest";
import { canonicalJson, fingerprint, readIdempotencyKey } from "./idempotency";
import { ProblemError } from "../problem";

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return error instanceof ProblemError ? error.code : "other";
  }
  return undefined;
}

describe("the Idempotency-Key header", () => {
  it("accepts a UUID and a 255-character key", () => {
    expect(readIdempotencyKey("0b6c3f4e-5d2a-4c1b-9e8f-7a6b5c4d3e2f")).toBe(
      "0b6c3f4e-5d2a-4c1b-9e8f-7a6b5c4d3e2f",
    );
    expect(readIdempotencyKey("k".repeat(255))).toHaveLength(255);
  });

  it("is required", () => {
    expect(codeOf(() => readIdempotencyKey(undefined))).toBe("idempotency_key_required");
    expect(codeOf(() => readIdempotencyKey("  "))).toBe("idempotency_key_required");
  });

  it.each([["k".repeat(256)], ["k".repeat(300)], ["has space"], ["naïve"]])("refuses %j", (key) => {
    expect(codeOf(() => readIdempotencyKey(key))).toBe("idempotency_key_invalid");
  });
});

describe("body fingerprints", () => {
  const secret = "f".repeat(64);

  it("ignore key order and spacing", () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[1,{"y":2,"z":1}]},"b":1}',
    );
    expect(fingerprint(secret, "donations", JSON.parse('{"a": 1, "b": "x"}'))).toBe(
      fingerprint(secret, "donations", JSON.parse('{"b":"x","a":1}')),
    );
  });

  it("differ for another body, another endpoint or another secret", () => {
    const base = fingerprint(secret, "donations", { amount: "25" });
    expect(fingerprint(secret, "donations", { amount: "26" })).not.toBe(base);
    expect(fingerprint(secret, "subscriptions", { amount: "25" })).not.toBe(base);
    expect(fingerprint("e".repeat(64), "donations", { amount: "25" })).not.toBe(base);
  });

  it("do not contain the body", () => {
    const print = fingerprint(secret, "donations", { credit_card_token: "tok_abcdef" });
    expect(print).toMatch(/^[0-9a-f]{64}$/);
    expect(print).not.toContain("tok_abcdef");
  });
});
