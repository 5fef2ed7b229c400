import { describe, expect, it } from "vitest";
import { BODY_LIMIT_BYTES, isJsonContentType, jsonBody, parseStrictJson } from "./json-body";
import { appWith } from "./test-app";

const app = appWith(jsonBody());

function post(body: BodyInit, headers: Record<string, string> = { "Content-Type": "application/json" }) {
  return app.request("/", { method: "POST", body, headers });
}

describe("the JSON body gate", () => {
  it("passes a JSON object through", async () => {
    const res = await post('{"a":1,"memo":"the \\"constructor\\" of hope"}');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ method: "POST", body: { a: 1, memo: 'the "constructor" of hope' } });
  });

  it.each([
    ["no content type", {}],
    ["text/plain", { "Content-Type": "text/plain" }],
    ["a form", { "Content-Type": "application/x-www-form-urlencoded" }],
    ["JSON in another charset", { "Content-Type": "application/json; charset=latin1" }],
  ])("refuses %s with 415", async (_name, headers) => {
    const res = await post("{}", headers as Record<string, string>);
    expect(res.status).toBe(415);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect((await res.json()).code).toBe("unsupported_media_type");
  });

  it("accepts application/json with a UTF-8 charset, in any case", () => {
    expect(isJsonContentType("Application/JSON; charset=UTF-8")).toBe(true);
    expect(isJsonContentType('application/json;charset="utf-8"')).toBe(true);
    expect(isJsonContentType("application/jsonp")).toBe(false);
  });

  it("refuses a body over 16 KB with 413 (declared length)", async () => {
    const body = JSON.stringify({ memo: "x".repeat(17 * 1024) });
    const res = await post(body, {
      "Content-Type": "application/json",
      "Content-Length": String(body.length),
    });
    expect(res.status).toBe(413);
    expect((await res.json()).code).toBe("payload_too_large");
  });

  it("refuses a streamed body over 16 KB with 413 (no declared length)", async () => {
    const chunk = new TextEncoder().encode(`"${"x".repeat(1024)}"`);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ > 20) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const res = await app.request("/", {
      method: "POST",
      body: stream,
      headers: { "Content-Type": "application/json" },
      // @ts-expect-error: Node's fetch needs duplex for a streamed body
      duplex: "half",
    });
    expect(res.status).toBe(413);
  });

  it("accepts a body of exactly the limit", async () => {
    const body = JSON.stringify({ memo: "x".repeat(BODY_LIMIT_BYTES - 11) });
    expect(body.length).toBe(BODY_LIMIT_BYTES);
    expect((await post(body)).status).toBe(200);
  });

  it.each([["{nope"], ['{"a":1'], [""], ["   "], ["NaN"]])(
    "refuses %j as malformed JSON (400)",
    async (text) => {
      const res = await post(text);
      expect(res.status).toBe(400);
      expect((await res.json()).code).toBe("malformed_json");
    },
  );

  it("refuses bytes that are not UTF-8", async () => {
    const res = await post(new Uint8Array([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]));
    expect(res.status).toBe(400);
    expect((await res.json()).code).toBe("malformed_json");
  });

  it.each([
    ['{"__proto__":{"polluted":true}}', "__proto__"],
    ['{"donor":{"constructor":{"prototype":{"polluted":true}}}}', "prototype"],
    ['{"a":[{"constructor":1}]}', "constructor"],
  ])("refuses prototype keys at any depth: %s", async (text, key) => {
    const res = await post(text);
    expect(res.status).toBe(400);
    const problem = await res.json();
    expect(problem.code).toBe("validation_failed");
    expect(Object.keys(problem.errors)).toEqual([key]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("parseStrictJson parses plain JSON like JSON.parse", () => {
    expect(parseStrictJson('[1,"two",{"three":3}]')).toEqual([1, "two", { three: 3 }]);
  });
});
