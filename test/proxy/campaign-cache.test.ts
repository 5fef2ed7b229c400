// GET /v1/campaigns/{shortcode}/{keyword} as a second page view meets it: compressed as the
// browser accepts, kept a short while, then asked again with its ETag and answered 304.
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { request } from "node:http";
import { describe, expect, it } from "vitest";
import { CampaignResponseSchema } from "../../contract/api";
import { useStack } from "./support";

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A GET with exactly these headers, its body as it came on the wire (fetch would decode it). */
function rawGet(url: string, headers: Record<string, string>): Promise<Raw> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (response) => {
      const parts: Buffer[] = [];
      response.on("data", (part: Buffer) => parts.push(part));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(parts) }),
      );
    })
      .on("error", reject)
      .end();
  });
}

describe("a campaign's answer is compressed and cacheable", () => {
  const ctx = useStack({ proxy: { allowedOrigins: ["https://hope.example.org"] } });
  const path = "/v1/campaigns/71777/HOPE";

  it("comes Brotli-compressed to a browser that takes it, gzip to one that takes only gzip, plain otherwise: the same campaign", async () => {
    const plain = await rawGet(ctx.proxy.url + path, {});
    expect(plain.status).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    const campaign = CampaignResponseSchema.parse(JSON.parse(plain.body.toString("utf8")));
    expect(campaign.allowed_origins).toEqual(["https://hope.example.org"]);

    const br = await rawGet(ctx.proxy.url + path, { "Accept-Encoding": "gzip, deflate, br, zstd" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toMatch(/Accept-Encoding/i);
    expect(br.body.length).toBeLessThan(plain.body.length);
    expect(Number(br.headers["content-length"])).toBe(br.body.length);
    expect(JSON.parse(brotliDecompressSync(br.body).toString("utf8"))).toEqual(campaign);

    const gz = await rawGet(ctx.proxy.url + path, { "Accept-Encoding": "gzip" });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(JSON.parse(gunzipSync(gz.body).toString("utf8"))).toEqual(campaign);
  });

  it("is kept a minute, used while asked again for five more, then revalidated by its ETag: 304, no body", async () => {
    const first = await rawGet(ctx.proxy.url + path, { "Accept-Encoding": "br" });
    expect(first.headers["cache-control"]).toBe("public, max-age=60, stale-while-revalidate=300");
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);

    const again = await rawGet(ctx.proxy.url + path, { "Accept-Encoding": "br", "If-None-Match": etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    expect(again.headers["cache-control"]).toBe(first.headers["cache-control"]);

    // Another coding is another representation: its own ETag, so a stale one is never taken for it.
    const gz = await rawGet(ctx.proxy.url + path, { "Accept-Encoding": "gzip", "If-None-Match": etag });
    expect(gz.status).toBe(200);
    expect(gz.headers.etag).not.toBe(etag);
  });

  it("a campaign named by its event is answered the same way; one not served is still a 404 problem", async () => {
    const byEvent = await rawGet(
      `${ctx.proxy.url}/v1/campaigns?event_id=2026-hope-walk&event_type=peer_campaign`,
      {
        "Accept-Encoding": "br",
      },
    );
    expect(byEvent.status).toBe(200);
    expect(byEvent.headers["content-encoding"]).toBe("br");
    expect(byEvent.headers["cache-control"]).toMatch(/stale-while-revalidate/);
    const byKeyword = await ctx.api.get(path);
    expect(JSON.parse(brotliDecompressSync(byEvent.body).toString("utf8"))).toEqual(byKeyword.json);

    const missing = await rawGet(`${ctx.proxy.url}/v1/campaigns/71777/NOPE`, { "Accept-Encoding": "br" });
    expect(missing.status).toBe(404);
    expect(missing.headers["content-type"]).toMatch(/problem\+json/);
    expect(JSON.parse(missing.body.toString("utf8"))).toMatchObject({ code: "campaign_not_served" });
  });
});
