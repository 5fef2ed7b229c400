// Counting without tracking: POST /v1/form-events, as the staff dashboard's funnel depends on it.
// What is checked is what the store keeps (its form_step_counts rows), never only the status.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { FORM_REASONS, FORM_STEPS, isProxyCounted } from "../../../contract/form-steps";
import { createApp } from "../../../proxy/app";
import { createFormSessions } from "../../../proxy/defence/form-session";
import { loadConfig } from "../../../proxy/config";
import { createLogger } from "../../../proxy/logger";
import { openStore, type Store } from "../../../proxy/store";
import { createUpstreamClient } from "../../../proxy/upstream/client";

const SECRET = "s".repeat(32);
const HOUR_MS = 3_600_000;
const opened: { store: Store; dir: string }[] = [];
afterEach(async () => {
  for (const { store, dir } of opened.splice(0)) {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

// As node:http hands a request to the app: its body as a stream, and the socket's address.
const from = (ip: string, body: string) =>
  ({
    incoming: Object.assign(Readable.from([Buffer.from(body)]), { socket: { remoteAddress: ip } }),
  }) as never;

async function proxy(env: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), "givekit-form-events-"));
  const config = loadConfig({
    UPSTREAM_BASE_URL: "http://127.0.0.1:9",
    UPSTREAM_PRIVATE_TOKEN: "p",
    UPSTREAM_PUBLIC_TOKEN: "q",
    GIVEKIT_DATA_DIR: dir,
    ...env,
  });
  const store = await openStore(config);
  opened.push({ store, dir });
  const lines: string[] = [];
  const app = createApp({
    config,
    logger: createLogger("info", { write: (line: string) => lines.push(line) }),
    store,
    signingSecret: SECRET,
    upstream: createUpstreamClient(config.upstream),
  });

  return {
    config,
    store,
    dir,
    lines,
    async session(
      campaign: Record<string, string> = { shortcode: "71777", keyword: "HOPE" },
      ip = "203.0.113.5",
    ) {
      const res = await app.request(
        "/v1/form-sessions",
        { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(campaign) },
        from(ip, JSON.stringify(campaign)),
      );
      expect(res.status).toBe(201);
      return ((await res.json()) as { form_session: string }).form_session;
    },
    async beacon(body: unknown, options: { type?: string | null; ip?: string } = {}) {
      const headers: Record<string, string> = {};
      if (options.type !== null) headers["Content-Type"] = options.type ?? "text/plain;charset=UTF-8";
      const text = typeof body === "string" ? body : JSON.stringify(body);
      const res = await app.request(
        "/v1/form-events",
        { method: "POST", headers, body: text },
        from(options.ip ?? "203.0.113.5", text),
      );
      return {
        status: res.status,
        json: res.status === 204 ? null : ((await res.json()) as Problem),
      };
    },
    /** Every count kept, of every hour, as "campaign step reason channel device = count". */
    async counts() {
      const rows = await store.formCounts({ fromHour: 0, toHour: Math.floor(Date.now() / HOUR_MS) + 1 });
      return rows
        .map((r) => `${r.campaign} ${r.step} ${r.reason} ${r.channel} ${r.device} = ${r.count}`)
        .toSorted();
    },
  };
}

/** The problem+json fields the tests read. */
interface Problem {
  code: string;
  status: number;
  errors: Record<string, string[]>;
}

const reached = (...steps: string[]) => steps.map((step) => ({ step, reason: "reached" }));

describe("a beacon under a good form session", () => {
  it("counts each step once per campaign, hour, reason, channel and device; a resent beacon counts nothing more", async () => {
    const p = await proxy();
    const session = await p.session();
    const body = {
      form_session: session,
      channel: "spring-gala",
      device: "phone",
      events: [...reached("shown", "amount", "details"), { step: "card", reason: "invalid_other" }],
    };
    expect((await p.beacon(body)).status).toBe(204);
    expect((await p.beacon(body)).status).toBe(204);
    expect(await p.counts()).toEqual([
      "71777/HOPE amount reached spring-gala phone = 1",
      "71777/HOPE card invalid_other spring-gala phone = 1",
      "71777/HOPE details reached spring-gala phone = 1",
      "71777/HOPE shown reached spring-gala phone = 1",
    ]);
    // Another donor: the same rows count up, in the current hour.
    await p.beacon({
      form_session: await p.session(),
      device: "phone",
      channel: "Spring-Gala",
      events: reached("shown"),
    });
    await p.beacon({ form_session: await p.session(), device: "larger", events: reached("shown") });
    expect(await p.counts()).toContain("71777/HOPE shown reached spring-gala phone = 2");
    expect(await p.counts()).toContain("71777/HOPE shown reached direct larger = 1");
    const [row] = await p.store.formCounts({
      fromHour: 0,
      toHour: Number.MAX_SAFE_INTEGER,
      campaign: "71777/HOPE",
    });
    expect(row!.hour).toBe(Math.floor(Date.now() / HOUR_MS));
  });

  it("takes the body as sendBeacon sends it: text/plain, a Blob's application/json, or no type", async () => {
    const p = await proxy();
    for (const type of ["text/plain;charset=UTF-8", "application/json", null]) {
      const reply = await p.beacon(
        { form_session: await p.session(), device: "larger", events: reached("shown") },
        { type },
      );
      expect(reply.status).toBe(204);
    }
    expect(await p.counts()).toEqual(["71777/HOPE shown reached direct larger = 3"]);
  });

  it("every step and reason a beacon may tell is counted; one naming what only the proxy can know is refused, naming it", async () => {
    const p = await proxy();
    const session = await p.session();
    const all = FORM_STEPS.flatMap((step) => FORM_REASONS.map((reason) => ({ step, reason })));
    const told = all.filter((event) => !isProxyCounted(event));
    for (let at = 0; at < told.length; at += 12)
      expect(
        (await p.beacon({ form_session: session, device: "phone", events: told.slice(at, at + 12) })).status,
      ).toBe(204);
    for (const event of all.filter(isProxyCounted)) {
      const reply = await p.beacon({ form_session: session, device: "phone", events: [event] });
      expect(reply.status).toBe(400);
      expect(reply.json!.errors["events.0"]![0]).toContain(
        `${event.step} ${event.reason} is counted by the proxy`,
      );
    }
    expect(await p.counts()).toHaveLength(told.length);
    expect(
      (await p.counts()).filter((row) =>
        / (sent|thanks) reached | (declined|challenge_unsolved|upstream_error) /.test(row),
      ),
    ).toEqual([]);
  });

  it("a forged thank-you is refused and counts nothing: one form session, a beacon claiming the gift sent and thanked", async () => {
    const p = await proxy();
    const session = await p.session();
    const forged = {
      form_session: session,
      device: "phone",
      events: reached("shown", "amount", "details", "card", "sent", "thanks"),
    };
    expect((await p.beacon(forged)).status).toBe(400);
    expect((await p.beacon({ ...forged, events: [{ step: "sent", reason: "declined" }] })).status).toBe(400);
    expect(await p.counts()).toEqual([]);
  });
});

describe("what counts nothing", () => {
  it.each([
    ["no session", () => ({ device: "phone", events: reached("shown") }), "form_session"],
    [
      "a forged session",
      (s: string) => ({
        form_session: s.replace(/.$/, (c) => (c === "A" ? "B" : "A")),
        device: "phone",
        events: reached("shown"),
      }),
      "form_session",
    ],
    [
      "a made-up step",
      (s: string) => ({ form_session: s, device: "phone", events: [{ step: "paid", reason: "reached" }] }),
      "events.0.step",
    ],
    [
      "a made-up reason",
      (s: string) => ({ form_session: s, device: "phone", events: [{ step: "card", reason: "bored" }] }),
      "events.0.reason",
    ],
    [
      "a made-up device",
      (s: string) => ({ form_session: s, device: "iPhone 15", events: reached("shown") }),
      "device",
    ],
    [
      "an unknown field",
      (s: string) => ({
        form_session: s,
        device: "phone",
        events: reached("shown"),
        email: "ana@example.org",
      }),
      "email",
    ],
    [
      "too many events",
      (s: string) => ({
        form_session: s,
        device: "phone",
        events: Array.from({ length: 13 }, () => reached("shown")[0]),
      }),
      "events",
    ],
    ["no events", (s: string) => ({ form_session: s, device: "phone", events: [] }), "events"],
    [
      "a thank-you, which only the proxy counts",
      (s: string) => ({ form_session: s, device: "phone", events: reached("card", "thanks") }),
      "events.1",
    ],
  ])("%s: 400 naming the field", async (_, make, field) => {
    const p = await proxy();
    const reply = await p.beacon(make(await p.session()));
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ code: "validation_failed" });
    expect(Object.keys(reply.json!.errors)).toContain(field);
    expect(await p.counts()).toEqual([]);
  });

  it("an expired session: 400 naming form_session", async () => {
    const p = await proxy();
    // Made by the proxy's own code with its secret, a day ago: long past its last renewal.
    const yesterday = createFormSessions(p.config.defence, {
      secret: SECRET,
      counters: null,
      now: () => Date.now() - 24 * HOUR_MS,
    });
    const { form_session } = await yesterday.issue(undefined, { campaign: "71777/HOPE" });
    const reply = await p.beacon({ form_session, device: "phone", events: reached("shown") });
    expect(reply.status).toBe(400);
    expect(Object.keys(reply.json!.errors)).toEqual(["form_session"]);
    expect(await p.counts()).toEqual([]);
  });

  it("a session of no campaign: 404 campaign_not_served", async () => {
    const p = await proxy();
    const reply = await p.beacon({
      form_session: await p.session({}),
      device: "phone",
      events: reached("shown"),
    });
    expect(reply.status).toBe(404);
    expect(reply.json).toMatchObject({ code: "campaign_not_served" });
    expect(await p.counts()).toEqual([]);
  });

  it("a huge body: 413; another type: 415; not JSON: 400", async () => {
    const p = await proxy();
    const session = await p.session();
    const huge = { form_session: session, device: "phone", events: reached("shown"), pad: "x".repeat(4000) };
    expect((await p.beacon(huge)).json).toMatchObject({ code: "payload_too_large", status: 413 });
    const form = await p.beacon("step=shown", { type: "application/x-www-form-urlencoded" });
    expect(form.json).toMatchObject({ code: "unsupported_media_type", status: 415 });
    expect((await p.beacon("{not json")).json).toMatchObject({ code: "malformed_json", status: 400 });
    expect(await p.counts()).toEqual([]);
  });

  it("a flood from one address: past its bucket each beacon is refused 429 and counts nothing; other addresses still count", async () => {
    const p = await proxy({ GIVEKIT_RATE_FORM_EVENTS: "5", GIVEKIT_RATE_FORM_EVENTS_PER_MIN: "1" });
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      const session = await p.session(undefined, `198.51.100.${i + 1}`);
      statuses.push(
        (
          await p.beacon(
            { form_session: session, device: "phone", events: reached("shown") },
            { ip: "203.0.113.66" },
          )
        ).status,
      );
    }
    expect(statuses.filter((s) => s === 204)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(15);
    expect(
      await p.beacon(
        { form_session: await p.session(), device: "phone", events: reached("shown") },
        { ip: "203.0.113.7" },
      ),
    ).toMatchObject({ status: 204 });
    expect(await p.counts()).toEqual(["71777/HOPE shown reached direct phone = 6"]);
  });
});

describe("the store stays bounded", () => {
  it("channels past the cap of a campaign's hour, and channels that are no tag, are counted as other", async () => {
    const p = await proxy({ GIVEKIT_DASHBOARD_CHANNELS: "2" });
    for (const channel of ["email", "sms", "facebook", "x", "news letter", "email"])
      await p.beacon({ form_session: await p.session(), device: "phone", channel, events: reached("shown") });
    expect(await p.counts()).toEqual([
      "71777/HOPE shown reached email phone = 2",
      "71777/HOPE shown reached other phone = 3",
      "71777/HOPE shown reached sms phone = 1",
    ]);
  });

  it("nothing personal is kept: no address, session, user agent, e-mail or page in the database", async () => {
    const p = await proxy();
    const session = await p.session(undefined, "198.51.100.77");
    await p.beacon(
      { form_session: session, device: "phone", channel: "email", events: reached("shown", "amount") },
      { ip: "198.51.100.77" },
    );
    await p.store.close();
    opened.pop();
    const bytes = readdirSync(p.dir)
      .filter((name) => name.startsWith("givekit"))
      .map((name) => readFileSync(join(p.dir, name)).toString("latin1"))
      .join("");
    for (const secret of ["198.51.100.77", session, session.split(".")[2]!])
      expect(bytes).not.toContain(secret);
    const counting = p.lines.filter((line) => line.includes("/v1/form-events"));
    expect(counting).toHaveLength(1);
    for (const secret of ["198.51.100.77", session.split(".")[2]!]) expect(counting[0]).not.toContain(secret);
    rmSync(p.dir, { recursive: true, force: true });
  });
});
