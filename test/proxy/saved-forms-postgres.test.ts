// Two proxies on one PostgreSQL: a form saved through one is served by the other within 10 s
// (each proxy asks the store again at most every FORM_FRESH_MS), and by the one that saved it at once.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { createApp } from "../../proxy/app";
import { loadConfig } from "../../proxy/config";
import { createDashboardAccess } from "../../proxy/dashboard/access";
import { createLogger } from "../../proxy/logger";
import { openStore, type Store } from "../../proxy/store";
import { createUpstreamClient } from "../../proxy/upstream/client";
import { testDatabase } from "../helpers/postgres";
import { formTokenIn } from "../helpers/dashboard";

const SECRET = "a".repeat(64);
const stores: Store[] = [];
const dir = mkdtempSync(join(tmpdir(), "givekit-forms-pg-"));
afterAll(async () => {
  for (const store of stores) await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function proxy(databaseUrl: string) {
  const config = loadConfig({
    UPSTREAM_BASE_URL: "http://127.0.0.1:9",
    UPSTREAM_PRIVATE_TOKEN: "p",
    UPSTREAM_PUBLIC_TOKEN: "q",
    DATABASE_URL: databaseUrl,
    GIVEKIT_DATA_DIR: dir,
    GIVEKIT_SIGNING_SECRET: SECRET,
    GIVEKIT_PUBLIC_URL: "https://give.hope.example",
  });
  const store = await openStore(config);
  stores.push(store);
  const app = createApp({
    config,
    logger: createLogger("silent"),
    store,
    signingSecret: SECRET,
    upstream: createUpstreamClient(config.upstream),
  });
  return { app, store };
}

const versionServed = async (app: Awaited<ReturnType<typeof proxy>>["app"]) => {
  const res = await app.request("/v1/campaigns/71777/HOPE?form=paddle-raise");
  return res.status === 200 ? ((await res.json()) as { form: { version: number } }).form.version : res.status;
};

it("a save through one proxy is served by the other within 10 s, and by itself at once", async () => {
  const url = await testDatabase();
  const [a, b] = [await proxy(url), await proxy(url)];
  const access = createDashboardAccess({ secret: SECRET, store: a.store });
  const signedIn = await a.app.request(
    `/dashboard/sign-in?invite=${await access.invite("Dana Reyes", 3_600_000)}`,
  );
  const cookie = signedIn.headers.get("set-cookie")!.split(";")[0]!;
  // The form token the designer's page gives, as its script sends it back with a save.
  const designer = await (await a.app.request("/dashboard/forms", { headers: { Cookie: cookie } })).text();
  const formToken = formTokenIn(designer);
  const save = (amounts: string, after: number) =>
    a.app.request("/dashboard/forms/paddle-raise", {
      method: "PUT",
      headers: { Cookie: cookie, "Content-Type": "application/json", "X-Givekit-Form": formToken },
      body: JSON.stringify({
        design: {
          element: "donate",
          shortcode: "71777",
          keyword: "HOPE",
          attributes: { amounts },
          theme: {},
        },
        after,
      }),
    });
  expect((await save("100,250,500", 0)).status).toBe(201);
  // Both serve version 1, and B now holds it in memory.
  expect(await versionServed(a.app)).toBe(1);
  expect(await versionServed(b.app)).toBe(1);
  expect((await save("250,500,1000", 1)).status).toBe(200);
  const savedAt = performance.now();
  expect(await versionServed(a.app)).toBe(2);
  let seen = await versionServed(b.app);
  while (seen !== 2 && performance.now() - savedAt < 12_000) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    seen = await versionServed(b.app);
  }
  const tookMs = performance.now() - savedAt;
  process.stdout.write(`the other proxy served version 2 after ${Math.round(tookMs)} ms\n`);
  expect(seen).toBe(2);
  expect(tookMs).toBeLessThan(10_000);
}, 30_000);
