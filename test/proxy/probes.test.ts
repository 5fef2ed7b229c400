// Probes that never take every proxy down at once: liveness is the process alone; readiness is
// 503 only for a reason of this proxy's own (stopping, its own SQLite store), the upstream or a
// shared PostgreSQL down is "degraded" in a 200; /metrics answers from memory while the store is
// down; the widget and the card frame are served while the upstream is down; a proxy started
// while its database is briefly down waits for it instead of exiting.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../helpers/postgres-global";
import { testDatabase } from "../helpers/postgres";
import { runProxy } from "../helpers/proxy-process";
import { startProxy } from "../helpers/proxy";
import { startSandbox, type SandboxHandle } from "../helpers/sandbox";
import { startRelay } from "./relay";
import { client, collected, DONATE_PATH, donate, donationBody, tokenize, upstreamCalls } from "./support";

const METRICS_TOKEN = "metrics-token-for-the-probes-test";
const BEARER = { Authorization: `Bearer ${METRICS_TOKEN}` };
const ALLOWED = "https://shelter.example";

let sandbox: SandboxHandle;
let widgetDir: string;
beforeAll(async () => {
  sandbox = await startSandbox();
  widgetDir = mkdtempSync(join(tmpdir(), "givekit-probes-widget-"));
  mkdirSync(join(widgetDir, "frame"));
  writeFileSync(join(widgetDir, "widget.js"), "/* iife */");
  writeFileSync(join(widgetDir, "frame", "card.html"), "<!doctype html><title>card</title>");
});
afterAll(async () => {
  await sandbox.close();
  rmSync(widgetDir, { recursive: true, force: true });
});

/** A fresh PostgreSQL database reached through a relay the test can cut: its URL and the relay. */
async function databaseBehindRelay() {
  const direct = new URL(await testDatabase());
  const relay = await startRelay(`http://${direct.hostname}:${direct.port}`);
  const url = new URL(direct);
  url.hostname = "127.0.0.1";
  url.port = String(relay.port);
  return { relay, url: url.toString() };
}

describe("PostgreSQL out of reach", () => {
  it(
    "liveness 200, readiness 200 degraded naming the store, /metrics 200 from memory; a donation 503 and nothing charged",
    { timeout: 30_000 },
    async () => {
      const { relay, url } = await databaseBehindRelay();
      const proxy = await startProxy({
        upstreamUrl: sandbox.url,
        env: {
          DATABASE_URL: url,
          GIVEKIT_SIGNING_SECRET: "s".repeat(40),
          GIVEKIT_METRICS_TOKEN: METRICS_TOKEN,
          GIVEKIT_WIDGET_DIR: widgetDir,
          ALLOWED_ORIGINS: ALLOWED,
        },
      });
      const api = client(proxy.url);
      try {
        expect((await api.get("/v1/ready")).json).toEqual({ status: "ready", store: true, upstream: true });
        const token = await tokenize(api);
        await relay.close();

        const live = await api.get("/v1/health");
        expect(live.status).toBe(200);
        expect(live.json).toEqual({ status: "ok", store: "postgres" });
        const ready = await api.get("/v1/ready");
        expect(ready.status).toBe(200);
        expect(ready.json).toEqual({ status: "degraded", store: false, upstream: true });

        const refused = await donate(api, donationBody(token));
        expect(refused.status).toBe(503);
        expect(refused.json.code).toBe("store_unavailable");
        expect(await upstreamCalls(sandbox, DONATE_PATH)).toBe(0);
        expect(await collected(sandbox)).toEqual([]);

        const started = performance.now();
        const metrics = await api.get("/metrics", BEARER);
        expect(metrics.status).toBe(200);
        expect(performance.now() - started).toBeLessThan(1000);
        expect(metrics.text).toMatch(
          /^givekit_store_errors_total\{operation="\w+",kind="unavailable"\} [1-9]/m,
        );
        // What donors' pages need still comes from this proxy.
        expect((await api.get("/widget.js")).status).toBe(200);
        expect((await api.get("/frame/card")).status).toBe(200);
      } finally {
        await proxy.close();
        await relay.close().catch(() => undefined);
      }
    },
  );

  it(
    "a proxy started while its database is down waits for it, then serves (no exit)",
    { timeout: 40_000 },
    async () => {
      const { relay, url } = await databaseBehindRelay();
      await relay.close();
      const program = runProxy({
        UPSTREAM_BASE_URL: sandbox.url,
        DATABASE_URL: url,
        GIVEKIT_SIGNING_SECRET: "s".repeat(40),
        GIVEKIT_STORE_START_WAIT_S: "30",
      });
      try {
        let exited: number | null | undefined;
        void program.exited.then((code) => (exited = code));
        // Tried and told, and still there well past the half second it used to last.
        await expect
          .poll(() => program.output().stdout.includes("the database cannot be reached yet"), {
            timeout: 10_000,
          })
          .toBe(true);
        await new Promise((resolve) => setTimeout(resolve, 1500));
        expect(exited).toBeUndefined();
        await relay.reopen();
        await expect
          .poll(() => /listening on (http:\/\/\S+)/.exec(program.output().stderr)?.[1], { timeout: 15_000 })
          .toBeDefined();
        const base = /listening on (http:\/\/\S+)/.exec(program.output().stderr)![1]!;
        expect((await client(base).get("/v1/ready")).json).toMatchObject({ status: "ready", store: true });
      } finally {
        program.child.kill("SIGTERM");
        await program.exited;
        await relay.close().catch(() => undefined);
      }
    },
  );
});

describe("the upstream out of reach", () => {
  it("readiness 200 degraded naming the upstream; the widget, the card frame and liveness still served", async () => {
    const proxy = await startProxy({
      upstreamUrl: `http://127.0.0.1:${await freePort()}`,
      allowedOrigins: [ALLOWED],
      env: { GIVEKIT_WIDGET_DIR: widgetDir },
    });
    try {
      const api = client(proxy.url);
      const ready = await api.get("/v1/ready");
      expect(ready.status).toBe(200);
      expect(ready.json).toEqual({ status: "degraded", store: true, upstream: false });
      expect((await api.get("/v1/health")).status).toBe(200);
      const widget = await api.get("/widget.js");
      expect(widget.status).toBe(200);
      expect(widget.text).toBe("/* iife */");
      const frame = await api.get("/frame/card");
      expect(frame.status).toBe(200);
      expect(frame.text).toContain("<title>card</title>");
      // The probe's line is no error: the upstream down is the operator's news, not each probe's.
      const lines = proxy.logs.map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines.find((line) => line.path === "/v1/ready")?.level).toBe(30);
    } finally {
      await proxy.close();
    }
  });
});
