import { describe, expect, it } from "vitest";
import { createLogger } from "./logger";

describe("the logger", () => {
  it("writes one JSON line per call and redacts card data, tokens and the Authorization header", () => {
    const lines: string[] = [];
    const logger = createLogger("info", { write: (line: string) => lines.push(line) });
    logger.info(
      {
        card_number: "4242424242424242",
        cvv: "123",
        token: "tok_secret",
        body: { credit_card_token: "tok_in_body", card_number: "4000000000000002" },
        headers: { authorization: 'Token token="private-secret"' },
        path: "/v1/donations",
      },
      "request",
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]!.endsWith("\n")).toBe(true);
    const entry = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(entry.path).toBe("/v1/donations");
    for (const secret of [
      "4242424242424242",
      '"123"',
      "tok_secret",
      "tok_in_body",
      "4000000000000002",
      "private-secret",
    ]) {
      expect(lines[0]).not.toContain(secret);
    }
    expect(entry.card_number).toBe("[redacted]");
  });
});
