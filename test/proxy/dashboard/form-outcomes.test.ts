// The funnel's gifts sent, thank-yous and declines come from what the proxy itself saw happen to
// a form session's card and gift, on SQLite and on PostgreSQL: equal to the sandbox's own records,
// each once per session however often a gift or a beacon is replayed; a script's beacon claiming
// a thank-you counts nothing.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { DashboardData } from "../../../contract/dashboard";
import { givekit } from "../../helpers/cli";
import { DEMO } from "../../helpers/sandbox";
import { CARDS, collected, donationBody, frameCard, postCard, useStack } from "../support";

const SECRET = "o".repeat(64);
const reached = (...steps: string[]) => steps.map((step) => ({ step, reason: "reached" }));

describe.each(["sqlite", "postgres"] as const)("the funnel's outcomes on %s", (store) => {
  const ctx = useStack({ proxy: { store, env: { GIVEKIT_SIGNING_SECRET: SECRET } } });

  const beacon = (session: string, events: { step: string; reason: string }[], channel = "spring-gala") =>
    fetch(`${ctx.proxy.url}/v1/form-events`, {
      method: "POST",
      headers: { "Content-Type": "text/plain;charset=UTF-8" },
      body: JSON.stringify({ form_session: session, channel, device: "phone", events }),
    });

  /** A form session as the card frame of the demo campaign asks for one. */
  async function formSession() {
    const reply = await ctx.api.post("/v1/form-sessions", { shortcode: "71777", keyword: "HOPE" });
    expect(reply.status).toBe(201);
    return reply.json.form_session as string;
  }

  const tokens = new Map<string, string>();
  /** A gift of the session; sent again with the same key, the same body (its token kept). */
  async function gift(session: string, card: string, key = randomUUID()) {
    if (!tokens.has(key)) {
      const token = await postCard(ctx.api, frameCard(card, { form_session: session }));
      if (token.status !== 201) throw new Error(`no token: ${token.status} ${token.text}`);
      tokens.set(key, String(token.json.token));
    }
    return ctx.api.post("/v1/donations", donationBody(tokens.get(key)!), {
      headers: { "Idempotency-Key": key },
    });
  }

  async function funnel() {
    const made = await givekit(["dashboard", "invite", "--name", "desk", "--for", "1h"], {
      UPSTREAM_BASE_URL: ctx.sandbox.url,
      UPSTREAM_PRIVATE_TOKEN: DEMO.hope.privateToken,
      UPSTREAM_PUBLIC_TOKEN: DEMO.hope.publicToken,
      GIVEKIT_DATA_DIR: ctx.proxy.dataDir,
      GIVEKIT_SIGNING_SECRET: SECRET,
      ...(store === "postgres" ? { DATABASE_URL: ctx.proxy.databaseUrl! } : {}),
    });
    const invite = new URL(made.out.split("\n")[0]!).searchParams.get("invite")!;
    const signed = await fetch(`${ctx.proxy.url}/dashboard/sign-in?invite=${encodeURIComponent(invite)}`);
    const cookie = signed.headers.get("set-cookie")!.split(";")[0]!;
    const data = (await (
      await fetch(`${ctx.proxy.url}/dashboard/data.json`, { headers: { cookie } })
    ).json()) as DashboardData;
    const step = (name: string) => data.funnel.find((s) => s.step === name)!;
    return {
      sent: step("sent").reached,
      thanks: step("thanks").reached,
      declined: step("sent").reasons.find((r) => r.reason === "declined")?.count ?? 0,
      channels: data.channels,
    };
  }

  it("counts what the proxy saw, once per session, and equals the sandbox's records; a forged thank-you counts nothing", async () => {
    // A donor who gives: its beacons tell the steps up to the card, the proxy the rest.
    const giver = await formSession();
    expect((await beacon(giver, reached("shown", "amount", "details", "card"))).status).toBe(204);
    const key = randomUUID();
    // Replayed (the same key and body), and its thank-you beaconed too: nothing counted twice.
    expect((await gift(giver, CARDS.ok, key)).status).toBe(200);
    const again = await gift(giver, CARDS.ok, key);
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect((await beacon(giver, reached("sent", "thanks"))).status).toBe(204);

    // A donor declined.
    const declined = await formSession();
    expect((await beacon(declined, reached("shown", "amount", "details", "card"), "direct")).status).toBe(
      204,
    );
    expect((await gift(declined, CARDS.declined)).json.code).toBe("card_declined");

    // A script: one form session, beacons claiming a gift sent and thanked.
    const script = await formSession();
    expect(
      (await beacon(script, reached("shown", "amount", "details", "card", "sent", "thanks"))).status,
    ).toBe(204);
    expect((await beacon(script, [{ step: "sent", reason: "declined" }])).status).toBe(204);

    const counted = await funnel();
    const charged = await collected(ctx.sandbox, "HOPE");
    const refused = await ctx.sandbox.transactions({ keyword: "HOPE", status: "declined" });
    expect(charged).toHaveLength(1);
    expect(refused).toHaveLength(1);
    expect(counted).toMatchObject({ sent: 2, thanks: charged.length, declined: refused.length });
    // Per channel, under the channel its beacons told: the gala's one gift thanked, direct's none.
    expect(counted.channels.find((c) => c.name === "spring-gala")).toMatchObject({ shown: 2, thanked: 1 });
    expect(counted.channels.find((c) => c.name === "direct")).toMatchObject({ shown: 1, thanked: 0 });
  }, 60_000);
});
