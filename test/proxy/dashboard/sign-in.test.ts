// Who may open the staff dashboard: a link made by `givekit dashboard invite`, spent once, which
// sets a session cookie; `givekit dashboard revoke` ends every session. Without a good session the
// page and its data answer 401 and say nothing of the campaigns.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createApp } from "../../../proxy/app";
import { givekit as runGivekit } from "../../helpers/cli";
import { loadConfig } from "../../../proxy/config";
import { createDashboardAccess } from "../../../proxy/dashboard/access";
import { createLogger } from "../../../proxy/logger";
import { openStore, resolveSigningSecret, type Store } from "../../../proxy/store";
import { createUpstreamClient } from "../../../proxy/upstream/client";

const HOUR_MS = 3_600_000;
const opened: { store: Store; dir: string }[] = [];
afterEach(async () => {
  for (const { store, dir } of opened.splice(0)) {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

async function proxy() {
  const dir = mkdtempSync(join(tmpdir(), "givekit-dashboard-"));
  const env = {
    UPSTREAM_BASE_URL: "http://127.0.0.1:9",
    UPSTREAM_PRIVATE_TOKEN: "p",
    UPSTREAM_PUBLIC_TOKEN: "q",
    GIVEKIT_DATA_DIR: dir,
    GIVEKIT_PUBLIC_URL: "https://give.hope.example",
  };
  const config = loadConfig(env);
  const store = await openStore(config);
  opened.push({ store, dir });
  const lines: Record<string, unknown>[] = [];
  const app = createApp({
    config,
    logger: createLogger("info", { write: (line: string) => lines.push(JSON.parse(line)) }),
    store,
    signingSecret: resolveSigningSecret(dir, null),
    upstream: createUpstreamClient(config.upstream),
  });
  const givekit = (...args: string[]) => runGivekit(args, env);
  return {
    app,
    store,
    dir,
    lines,
    givekit,
    /** A fresh link's invite, as `givekit dashboard invite` prints it. */
    async invite(name = "events desk", forText = "12h") {
      const made = await givekit("dashboard", "invite", "--name", name, "--for", forText);
      expect(made.code).toBe(0);
      const link = new URL(made.out.split("\n")[0]!);
      expect(`${link.origin}${link.pathname}`).toBe("https://give.hope.example/dashboard/sign-in");
      return link.searchParams.get("invite")!;
    },
    signIn(invite: string, headers: Record<string, string> = {}) {
      return app.request(`/dashboard/sign-in?invite=${encodeURIComponent(invite)}`, { headers });
    },
    get(path: string, cookie?: string) {
      return app.request(path, { headers: cookie ? { Cookie: cookie } : {} });
    },
  };
}

/** The cookie a sign-in set, as a browser sends it back ("name=value"). */
const cookieOf = (res: Response) => res.headers.get("set-cookie")!.split(";")[0]!;

async function expectRefused(res: Response) {
  expect(res.status).toBe(401);
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  const text = await res.text();
  expect(JSON.parse(text)).toMatchObject({ code: "unauthorized", status: 401 });
  for (const word of ["HOPE", "71777", "funnel", "giving"]) expect(text).not.toContain(word);
}

describe("signing in", () => {
  it("an invite's link sets an HttpOnly, SameSite=Strict cookie for /dashboard only; the page and its data then answer; the sign-in is logged with its name", async () => {
    const p = await proxy();
    const res = await p.signIn(await p.invite("events desk"));
    expect(res.status).toBe(200);
    const cookie = res.headers.get("set-cookie")!;
    expect(cookie).toMatch(
      /^givekit_dashboard=[\w-]+\.[\w-]+; Max-Age=4319\d; Path=\/dashboard; HttpOnly; SameSite=Strict$/,
    );
    expect(await res.text()).toContain('href="/dashboard"');
    expect(p.lines.filter((line) => line.msg === "dashboard sign-in")).toEqual([
      expect.objectContaining({ dashboard_sign_in: "events desk" }),
    ]);
    const page = await p.get("/dashboard", cookieOf(res));
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    const data = await p.get("/dashboard/data.json?period=7d", cookieOf(res));
    expect(data.status).toBe(200);
    expect(await data.json()).toMatchObject({
      period: "7d",
      campaigns: expect.arrayContaining(["71777/HOPE"]),
    });
  });

  it("behind TLS (the reverse proxy says https) the cookie is Secure too", async () => {
    const p = await proxy();
    const res = await p.signIn(await p.invite(), { "X-Forwarded-Proto": "https" });
    expect(res.headers.get("set-cookie")).toMatch(/; Secure; SameSite=Strict$/);
  });

  it("without a sign-in the page, its data, its live feed and its tables answer 401 and name no campaign", async () => {
    const p = await proxy();
    const paths = [
      "/dashboard",
      "/dashboard/",
      "/dashboard/data.json",
      "/dashboard/live",
      "/dashboard/funnel.csv",
      "/dashboard/assets/dashboard.js",
    ];
    const answers = await Promise.all(paths.map((path) => p.get(path)));
    expect(answers.map((res) => res.status)).toEqual(paths.map(() => 401));
    for (const res of answers) await expectRefused(res);
    await expectRefused(await p.get("/dashboard/data.json", "givekit_dashboard=made.up"));
  });
});

describe("signed in", () => {
  it("each table downloads as CSV for the view asked; a made-up period or campaign is 400 naming it; an empty period is zeros, not an error", async () => {
    const p = await proxy();
    const cookie = cookieOf(await p.signIn(await p.invite()));
    const hour = Math.floor(Date.now() / HOUR_MS);
    await p.store.addFormCounts(
      [
        {
          campaign: "71777/HOPE",
          hour,
          step: "shown",
          reason: "reached",
          channel: "=cmd",
          device: "phone",
          count: 4,
        },
        {
          campaign: "71777/HOPE",
          hour,
          step: "shown",
          reason: "closed",
          channel: "=cmd",
          device: "phone",
          count: 1,
        },
        {
          campaign: "71777/HOPE",
          hour,
          step: "amount",
          reason: "reached",
          channel: "=cmd",
          device: "phone",
          count: 3,
        },
      ],
      20,
    );
    const funnel = await p.get("/dashboard/funnel.csv?period=today&campaign=71777/HOPE", cookie);
    expect(funnel.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(funnel.headers.get("content-disposition")).toBe('attachment; filename="givekit-funnel-today.csv"');
    expect((await funnel.text()).split("\r\n").slice(0, 3)).toEqual([
      "step,reached,left,share_left,reasons",
      "shown,4,1,0.2500,closed:1",
      "amount,3,3,1.0000,",
    ]);
    // A channel a spreadsheet would run as a formula is text.
    expect((await (await p.get("/dashboard/channels.csv", cookie)).text()).split("\r\n")[1]).toBe(
      "'=cmd,4,0,0.0000,0,0",
    );
    const bad = await p.get("/dashboard/data.json?period=forever&campaign=99999/NOPE", cookie);
    expect(bad.status).toBe(400);
    expect(Object.keys(((await bad.json()) as { errors: object }).errors)).toEqual(["period", "campaign"]);
    const empty = (await (await p.get("/dashboard/data.json?campaign=41444/MEALS", cookie)).json()) as {
      funnel: { reached: number }[];
    };
    expect(empty.funnel.map((step) => step.reached)).toEqual([0, 0, 0, 0, 0, 0]);
  });
});

describe("what is refused", () => {
  it("a link used twice: the second sign-in is refused; the first session still holds", async () => {
    const p = await proxy();
    const invite = await p.invite();
    const first = await p.signIn(invite);
    expect(first.status).toBe(200);
    await expectRefused(await p.signIn(invite));
    expect((await p.get("/dashboard/data.json", cookieOf(first))).status).toBe(200);
  });

  it("an expired link, and a session past its end", async () => {
    const p = await proxy();
    // Made by the proxy's own code with its secret, 13 hours ago, for 12 hours.
    const earlier = createDashboardAccess({
      secret: resolveSigningSecret(p.dir, null),
      store: p.store,
      now: () => Date.now() - 13 * HOUR_MS,
    });
    await expectRefused(await p.signIn(await earlier.invite("events desk", 12 * HOUR_MS)));
    const cookie = await earlier.signIn(await earlier.invite("events desk", 12 * HOUR_MS));
    expect(typeof cookie).toBe("object");
    await expectRefused(
      await p.get("/dashboard/data.json", `givekit_dashboard=${(cookie as { cookie: string }).cookie}`),
    );
  });

  it("a forged link or cookie: another name or end under the same signature, another key, an invite used as a cookie", async () => {
    const p = await proxy();
    const invite = await p.invite("events desk", "1h");
    const [body, mac] = invite.split(".");
    const longer = Buffer.from(
      Buffer.from(body!, "base64url")
        .toString()
        .replace(/"u":\d+/, `"u":${Date.now() + 1000 * HOUR_MS}`),
    ).toString("base64url");
    expect(longer).not.toBe(body);
    await expectRefused(await p.signIn(`${longer}.${mac}`));
    const other = createDashboardAccess({ secret: "x".repeat(64), store: p.store });
    await expectRefused(await p.signIn(await other.invite("events desk", HOUR_MS)));
    await expectRefused(await p.get("/dashboard/data.json", `givekit_dashboard=${invite}`));
    const session = cookieOf(await p.signIn(invite));
    const [cBody, cMac] = session.split("=")[1]!.split(".");
    const renamed = Buffer.from(
      Buffer.from(cBody!, "base64url").toString().replace("events desk", "director"),
    ).toString("base64url");
    await expectRefused(await p.get("/dashboard/data.json", `givekit_dashboard=${renamed}.${cMac}`));
  });

  it("after `givekit dashboard revoke`: every session and every unused link is refused; a new link works", async () => {
    const p = await proxy();
    const session = cookieOf(await p.signIn(await p.invite("events desk")));
    const unused = await p.invite("front door");
    const revoked = await p.givekit("dashboard", "revoke");
    expect(revoked).toMatchObject({ code: 0 });
    await expectRefused(await p.get("/dashboard/data.json", session));
    await expectRefused(await p.signIn(unused));
    expect((await p.signIn(await p.invite("events desk"))).status).toBe(200);
  });

  it.each([
    [["--name", ""], "--name"],
    [["--name", "<script>"], "--name"],
    [["--name", "desk", "--for", "forever"], "--for"],
    [["--name", "desk", "--for", "30d"], "--for"],
  ])("givekit dashboard invite %j: exit 2 naming %s, no link", async (args, flag) => {
    const p = await proxy();
    const made = await p.givekit("dashboard", "invite", ...args);
    expect(made.code).toBe(2);
    expect(made.err).toContain(flag);
    expect(made.out).toBe("");
  });
});
