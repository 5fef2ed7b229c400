// Saved forms as staff and donors' pages see them over HTTP: the designer saves a design under a
// name (every problem named, nothing half-saved), the campaign's answer carries its latest version
// in the same request, two staff saving at once are told, and an older version comes back in one click.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createApp } from "../../../proxy/app";
import { loadConfig } from "../../../proxy/config";
import { createDashboardAccess } from "../../../proxy/dashboard/access";
import { createLogger } from "../../../proxy/logger";
import { openStore, resolveSigningSecret, type Store } from "../../../proxy/store";
import { createUpstreamClient } from "../../../proxy/upstream/client";
import { formTokenIn } from "../../helpers/dashboard";

const opened: { store: Store; dir: string }[] = [];
afterEach(async () => {
  for (const { store, dir } of opened.splice(0)) {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

const design = (attributes: Record<string, string>, theme: Record<string, string> = {}) => ({
  element: "donate",
  shortcode: "71777",
  keyword: "HOPE",
  attributes,
  theme,
});

async function proxy() {
  const dir = mkdtempSync(join(tmpdir(), "givekit-forms-"));
  const config = loadConfig({
    UPSTREAM_BASE_URL: "http://127.0.0.1:9",
    UPSTREAM_PRIVATE_TOKEN: "p",
    UPSTREAM_PUBLIC_TOKEN: "q",
    GIVEKIT_DATA_DIR: dir,
    GIVEKIT_PUBLIC_URL: "https://give.hope.example",
    ALLOWED_ORIGINS: "https://hope.example",
  });
  const store = await openStore(config);
  opened.push({ store, dir });
  const secret = resolveSigningSecret(dir, null);
  const app = createApp({
    config,
    logger: createLogger("silent"),
    store,
    signingSecret: secret,
    upstream: createUpstreamClient(config.upstream),
  });
  const access = createDashboardAccess({ secret, store });
  /** A staff member signed in with an invite made for `name`: their cookie. */
  const staff = async (name: string) => {
    const res = await app.request(`/dashboard/sign-in?invite=${await access.invite(name, 3_600_000)}`);
    expect(res.status).toBe(200);
    return res.headers.get("set-cookie")!.split(";")[0]!;
  };
  /** The form token the designer's page gives a signed-in staff member, as its script sends it back. */
  const formToken = async (cookie: string) => {
    const page = await (await app.request("/dashboard/forms", { headers: { Cookie: cookie } })).text();
    return formTokenIn(page);
  };
  const send = async (method: string, path: string, cookie: string, body: unknown, token?: string) =>
    app.request(path, {
      method,
      headers: {
        Cookie: cookie,
        "Content-Type": "application/json",
        "X-Givekit-Form": token ?? (await formToken(cookie)),
      },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  return { app, store, staff, send };
}

const problem = async (res: Response): Promise<Record<string, unknown>> => ({
  status: res.status,
  ...((await res.json()) as Record<string, unknown>),
});

describe("saving a form in the dashboard", () => {
  it("saves a design under its name, with who saved it, and the campaign's answer carries it in the same request", async () => {
    const { app, staff, send } = await proxy();
    const dana = await staff("Dana Reyes");
    const saved = await send("PUT", "/dashboard/forms/year-end", dana, {
      design: design(
        { amounts: "50,100,250", "default-amount": "100", "default-frequency": "monthly" },
        { accent: "#0b5394" },
      ),
      after: 0,
    });
    expect(saved.status).toBe(201);
    expect(await saved.json()).toMatchObject({ name: "year-end", version: 1, author: "Dana Reyes" });

    const page = await app.request("/v1/campaigns/71777/HOPE?form=year-end");
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("no-cache");
    const body = (await page.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      shortcode: "71777",
      keyword: "HOPE",
      min_amount: "5.00",
      form: {
        name: "year-end",
        version: 1,
        attributes: { amounts: "50,100,250", "default-amount": "100", "default-frequency": "monthly" },
        theme: { accent: "#0b5394" },
      },
    });
    // Without ?form= the answer is as it was: no saved form rides along.
    expect(await (await app.request("/v1/campaigns/71777/HOPE")).json()).not.toHaveProperty("form");
    // A name no form has, or one of another campaign: the element's polite note.
    expect(await problem(await app.request("/v1/campaigns/71777/HOPE?form=spring"))).toMatchObject({
      status: 404,
      code: "form_not_found",
    });
    expect(await problem(await app.request("/v1/campaigns/41444/MEALS?form=year-end"))).toMatchObject({
      status: 404,
      code: "form_not_found",
    });
    expect(await problem(await app.request("/v1/campaigns/71777/HOPE?form=Year%20End"))).toMatchObject({
      status: 400,
      errors: { form: expect.any(Array) },
    });
  });

  it("refuses a design with every problem named, and saves nothing of it", async () => {
    const { app, staff, send } = await proxy();
    const cookie = await staff("events desk");
    const bad = await send("PUT", "/dashboard/forms/year-end", cookie, {
      design: design(
        {
          amounts: "2,100,250",
          "default-amount": "75",
          "success-url": "https://elsewhere.example/thanks",
        },
        { accent: "#7fb2ff", text: "blue-ish", size: "14px" },
      ),
      after: 0,
    });
    const answer = await problem(bad);
    expect(answer).toMatchObject({ status: 400, code: "validation_failed" });
    const errors = answer.errors as Record<string, string[]>;
    expect(errors.amounts?.[0]).toMatch(/from 5.00 to 10000.00/);
    expect(errors["default-amount"]).toEqual(["must be one of the amounts"]);
    expect(errors["success-url"]?.[0]).toMatch(/https:\/\/hope\.example/);
    expect(errors["theme.text"]?.[0]).toMatch(/not a colour/);
    expect(errors["theme.size"]?.[0]).toMatch(/14px is under 16px/);
    // A colour that is a colour but too pale: the ratio is said.
    const pale = await problem(
      await send("PUT", "/dashboard/forms/year-end", cookie, {
        design: design({}, { accent: "#7fb2ff" }),
        after: 0,
      }),
    );
    expect((pale.errors as Record<string, string[]>)["theme.accent"]?.[0]).toMatch(
      /contrast 2\.\d\d:1, at least 4\.5:1/,
    );
    const notServed = await problem(
      await send("PUT", "/dashboard/forms/year-end", cookie, {
        design: { ...design({}), shortcode: "99999", keyword: "NOPE" },
        after: 0,
      }),
    );
    expect((notServed.errors as Record<string, string[]>).campaign?.[0]).toMatch(
      /not a campaign this proxy serves/,
    );
    expect(
      await problem(await send("PUT", "/dashboard/forms/Year_End", cookie, { design: design({}), after: 0 })),
    ).toMatchObject({
      status: 400,
      errors: { name: expect.any(Array) },
    });
    const huge = JSON.stringify({
      design: design({ heading: "x".repeat(900), "form-id": "y".repeat(20_000) }),
      after: 0,
    });
    expect(await problem(await send("PUT", "/dashboard/forms/year-end", cookie, huge))).toMatchObject({
      status: 413,
      code: "payload_too_large",
    });
    expect((await app.request("/v1/campaigns/71777/HOPE?form=year-end")).status).toBe(404);
  });

  it("two staff saving at once: the second is told who saved first, and nothing of either is lost", async () => {
    const { app, staff, send } = await proxy();
    const [dana, sam] = [await staff("Dana Reyes"), await staff("Sam Ortiz")];
    await send("PUT", "/dashboard/forms/year-end", dana, { design: design({ amounts: "25,50" }), after: 0 });
    const first = await send("PUT", "/dashboard/forms/year-end", dana, {
      design: design({ amounts: "50,100,250" }),
      after: 1,
    });
    expect(first.status).toBe(200);
    const second = await problem(
      await send("PUT", "/dashboard/forms/year-end", sam, { design: design({ amounts: "20,40" }), after: 1 }),
    );
    expect(second).toMatchObject({
      status: 409,
      code: "form_changed",
      latest: { version: 2, author: "Dana Reyes", design: { attributes: { amounts: "50,100,250" } } },
    });
    expect(second.detail).toMatch(/Dana Reyes saved version 2/);
    const history = (await (
      await app.request("/dashboard/forms/year-end.json", { headers: { Cookie: sam } })
    ).json()) as {
      versions: { version: number; author: string }[];
    };
    expect(history.versions.map((v) => [v.version, v.author])).toEqual([
      [2, "Dana Reyes"],
      [1, "Dana Reyes"],
    ]);
  });

  it("restores an older version as the newest, in one request, kept with who restored it", async () => {
    const { app, staff, send } = await proxy();
    const dana = await staff("Dana Reyes");
    await send("PUT", "/dashboard/forms/year-end", dana, { design: design({ amounts: "25,50" }), after: 0 });
    await send("PUT", "/dashboard/forms/year-end", dana, {
      design: design({ amounts: "50,100,250" }),
      after: 1,
    });
    const sam = await staff("Sam Ortiz");
    const restored = await send("POST", "/dashboard/forms/year-end/restore", sam, { version: 1, after: 2 });
    expect(restored.status).toBe(200);
    expect(await restored.json()).toMatchObject({
      version: 3,
      author: "Sam Ortiz",
      design: { attributes: { amounts: "25,50" } },
    });
    const page = (await (await app.request("/v1/campaigns/71777/HOPE?form=year-end")).json()) as {
      form: unknown;
    };
    expect(page.form).toMatchObject({ version: 3, attributes: { amounts: "25,50" } });
  });

  it("previews any of the six elements with its own attributes written on it, and saves only a donate form", async () => {
    const { app, store, staff, send } = await proxy();
    const cookie = await staff("events desk");
    const preview = (query: string) =>
      app.request(`/dashboard/forms/preview?${query}`, { headers: { Cookie: cookie } });
    const page = await preview(
      new URLSearchParams({
        element: "optin",
        shortcode: "71777",
        keyword: "HOPE",
        "program-name": 'Hope "Alerts"',
        "terms-url": "https://hope.example/sms-terms",
        "privacy-url": "https://hope.example/privacy",
        amounts: "50,100",
        form: "year-end",
      }).toString(),
    );
    expect(page.status).toBe(200);
    const html = await page.text();
    // The opt-in with its own attributes only: a form's amounts and a saved form's name are not its.
    expect(html).toContain(
      '<givekit-optin shortcode="71777" keyword="HOPE" program-name="Hope &quot;Alerts&quot;" terms-url="https://hope.example/sms-terms" privacy-url="https://hope.example/privacy"></givekit-optin>',
    );
    expect(html).not.toContain("givekit-donate");
    expect(page.headers.get("content-security-policy")).toMatch(/frame-ancestors 'self'/);
    // A preview reads its campaign and sends nothing: it may ask this proxy, at the origin its
    // Host names (a front's, behind a reverse proxy), for the campaign's reads only, and no frame.
    const directives = async (host: string) =>
      (
        await app.request("/dashboard/forms/preview?element=optin&shortcode=71777&keyword=HOPE", {
          headers: { Cookie: cookie, Host: host },
        })
      ).headers
        .get("content-security-policy")!
        .split("; ")
        .filter((directive) => /^(default|connect|frame)-src /.test(directive));
    expect(await directives("Give.Hope.example")).toEqual([
      "default-src 'none'",
      "connect-src give.hope.example/v1/campaigns give.hope.example/v1/campaigns/",
    ]);
    expect(await directives("127.0.0.1:8787")).toContain(
      "connect-src 127.0.0.1:8787/v1/campaigns 127.0.0.1:8787/v1/campaigns/",
    );
    // A Host no CSP source can name (an IPv6 literal, or one that would add a source) leaves it nothing to ask.
    for (const host of ["[::1]:8787", "give.hope.example; connect-src *"])
      expect(await directives(host)).toEqual(["default-src 'none'", "connect-src 'none'"]);
    const wall = await (
      await preview("element=wall&shortcode=71777&keyword=HOPE&limit=8&amounts=hidden")
    ).text();
    expect(wall).toContain(
      '<givekit-wall shortcode="71777" keyword="HOPE" limit="8" amounts="hidden"></givekit-wall>',
    );
    expect(await problem(await preview("element=script&shortcode=71777&keyword=HOPE"))).toMatchObject({
      status: 400,
      errors: {
        element: [expect.stringMatching(/^Must be one of donate, button, optin, goal, wall, leaderboard/)],
      },
    });

    const optin = {
      ...design({
        "program-name": "Hope Alerts",
        "terms-url": "https://hope.example/sms-terms",
        "privacy-url": "https://hope.example/privacy",
      }),
      element: "optin",
    };
    const refused = await problem(
      await send("PUT", "/dashboard/forms/alerts", cookie, { design: optin, after: 0 }),
    );
    expect(refused).toMatchObject({
      status: 400,
      code: "validation_failed",
      errors: {
        element: [
          expect.stringMatching(
            /^a <givekit-optin> design is not saved: only <givekit-donate> reads a saved form/,
          ),
        ],
      },
    });
    expect(await store.savedForm("alerts")).toBeNull();
  });

  it("a revoked session saves nothing", async () => {
    const { app, store, staff, send } = await proxy();
    const dana = await staff("Dana Reyes");
    await store.revokeDashboard();
    const refused = await send("PUT", "/dashboard/forms/year-end", dana, { design: design({}), after: 0 });
    expect(refused.status).toBe(401);
    expect(await store.savedForm("year-end")).toBeNull();
    expect((await app.request("/v1/campaigns/71777/HOPE?form=year-end")).status).toBe(404);
  });

  it("a save without the designer page's form token, or from another site, is refused 403 and saves nothing", async () => {
    const { app, store, staff, send } = await proxy();
    const dana = await staff("Dana Reyes");
    const save = { design: design({}), after: 0 };
    for (const refused of [
      await send("PUT", "/dashboard/forms/year-end", dana, save, ""),
      await send("PUT", "/dashboard/forms/year-end", dana, save, "forged"),
      await app.request("/dashboard/forms/year-end", {
        method: "PUT",
        headers: { Cookie: dana, "Content-Type": "application/json", "Sec-Fetch-Site": "cross-site" },
        body: JSON.stringify(save),
      }),
    ])
      expect(await problem(refused)).toMatchObject({ status: 403, code: "origin_not_allowed" });
    expect(await store.savedForm("year-end")).toBeNull();
    expect((await send("PUT", "/dashboard/forms/year-end", dana, save)).status).toBe(201);
  });

  it("draws a prefill link's QR code, for a web address only, and only for staff", async () => {
    const { app, staff } = await proxy();
    const cookie = await staff("Dana Reyes");
    const link = "https://hope.example/give?amount=100&frequency=monthly";
    const qr = await app.request(`/dashboard/forms/qr.svg?url=${encodeURIComponent(link)}`, {
      headers: { Cookie: cookie },
    });
    expect(qr.status).toBe(200);
    expect(qr.headers.get("content-type")).toBe("image/svg+xml");
    expect(await qr.text()).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    const bad = await app.request("/dashboard/forms/qr.svg?url=javascript:alert(1)", {
      headers: { Cookie: cookie },
    });
    expect(await problem(bad)).toMatchObject({ status: 400, errors: { url: expect.any(Array) } });
    expect((await app.request(`/dashboard/forms/qr.svg?url=${encodeURIComponent(link)}`)).status).toBe(401);
  });
});
