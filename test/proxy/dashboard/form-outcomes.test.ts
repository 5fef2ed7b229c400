// The funnel's gifts sent, thank-yous and declines come from what the proxy itself saw happen to
// a form session's card and gift, on SQLite and on PostgreSQL: equal to the sandbox's own records,
// each once per session however often a gift or a beacon is replayed; a script's beacon claiming
// a thank-you is refused and counts nothing; a Pending gift is a gift sent until the reconciler settles it.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { DashboardData } from "../../../contract/dashboard";
import { withStore } from "../../../proxy/cli/ops";
import { PENDING_FORM_NOTE_PREFIX } from "../../../proxy/store/counters";
import { givekit } from "../../helpers/cli";
import { DEMO } from "../../helpers/sandbox";
import { CARDS, collected, donationBody, frameCard, postCard, useStack, type Stack } from "../support";

const SECRET = "o".repeat(64);
const reached = (...steps: string[]) => steps.map((step) => ({ step, reason: "reached" }));

/** A form session's beacons, its gifts, and the dashboard's funnel, on one stack. */
function funnelKit(ctx: Stack, store: "sqlite" | "postgres") {
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
  async function gift(
    session: string,
    card: string,
    key = randomUUID(),
    fields: Record<string, unknown> = {},
  ) {
    if (!tokens.has(key)) {
      const token = await postCard(ctx.api, frameCard(card, { form_session: session }));
      if (token.status !== 201) throw new Error(`no token: ${token.status} ${token.text}`);
      tokens.set(key, String(token.json.token));
    }
    return ctx.api.post("/v1/donations", donationBody(tokens.get(key)!, fields), {
      headers: { "Idempotency-Key": key },
    });
  }

  /** The `givekit` command's environment, beside the running proxy. */
  const cliEnv = () => ({
    UPSTREAM_BASE_URL: ctx.sandbox.url,
    UPSTREAM_PRIVATE_TOKEN: DEMO.hope.privateToken,
    UPSTREAM_PUBLIC_TOKEN: DEMO.hope.publicToken,
    GIVEKIT_DATA_DIR: ctx.proxy.dataDir,
    GIVEKIT_SIGNING_SECRET: SECRET,
    ...(store === "postgres" ? { DATABASE_URL: ctx.proxy.databaseUrl! } : {}),
  });

  let cookie: string | undefined;
  async function funnel() {
    if (!cookie) {
      const made = await givekit(["dashboard", "invite", "--name", "desk", "--for", "1h"], cliEnv());
      const invite = new URL(made.out.split("\n")[0]!).searchParams.get("invite")!;
      const signed = await fetch(`${ctx.proxy.url}/dashboard/sign-in?invite=${encodeURIComponent(invite)}`);
      cookie = signed.headers.get("set-cookie")!.split(";")[0]!;
    }
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
  return { beacon, formSession, gift, funnel, cliEnv };
}

describe.each(["sqlite", "postgres"] as const)("the funnel's outcomes on %s", (store) => {
  const ctx = useStack({ proxy: { store, env: { GIVEKIT_SIGNING_SECRET: SECRET } } });
  const { beacon, formSession, gift, funnel } = funnelKit(ctx, store);

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
    expect((await beacon(giver, reached("sent", "thanks"))).status).toBe(400);

    // A donor declined.
    const declined = await formSession();
    expect((await beacon(declined, reached("shown", "amount", "details", "card"), "direct")).status).toBe(
      204,
    );
    expect((await gift(declined, CARDS.declined)).json.code).toBe("card_declined");

    // A script: one form session, its steps up to the card, then beacons claiming a gift sent
    // and thanked, and one declined: each refused, naming what only the proxy counts.
    const script = await formSession();
    expect((await beacon(script, reached("shown", "amount", "details", "card"))).status).toBe(204);
    expect((await beacon(script, reached("sent", "thanks"))).status).toBe(400);
    expect((await beacon(script, [{ step: "sent", reason: "declined" }])).status).toBe(400);

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

describe.each(["sqlite", "postgres"] as const)("a Pending gift's outcome on %s", (store) => {
  // The donate of 777.77 is recorded by the sandbox (collected, or declined for a declining card)
  // and never answered: the proxy answers Pending after its 1.5 s timeout, and its reconciler
  // (every second here) finds the row in the transactions report.
  const ctx = useStack({
    proxy: {
      store,
      env: { GIVEKIT_SIGNING_SECRET: SECRET, UPSTREAM_TIMEOUT_MS: "1500", GIVEKIT_RECONCILE_INTERVAL_S: "1" },
    },
  });
  const { beacon, formSession, gift, funnel } = funnelKit(ctx, store);

  it("counts as sent until it settles, then once as the thank-you or the decline the sandbox recorded", async () => {
    const giver = await formSession();
    const refused = await formSession();
    expect((await beacon(giver, reached("shown", "amount", "details", "card"))).status).toBe(204);
    expect((await beacon(refused, reached("shown", "amount", "details", "card"), "newsletter")).status).toBe(
      204,
    );
    const pending = await Promise.all([
      gift(giver, CARDS.ok, randomUUID(), { amount: "777.77" }),
      gift(refused, CARDS.declined, randomUUID(), { amount: "777.77" }),
    ]);
    expect(pending.map((reply) => [reply.status, reply.json.donation?.status])).toEqual([
      [202, "Pending"],
      [202, "Pending"],
    ]);

    // Settled within a few passes: the funnel follows the sandbox's own rows.
    let counted = await funnel();
    for (let waited = 0; counted.thanks + counted.declined < 2 && waited < 20_000; waited += 250) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      counted = await funnel();
    }
    const charged = await collected(ctx.sandbox, "HOPE");
    const declinedRows = await ctx.sandbox.transactions({ keyword: "HOPE", status: "declined" });
    expect(charged.map((row) => row.amount)).toEqual(["777.77"]);
    expect(declinedRows.map((row) => row.amount)).toEqual(["777.77"]);
    for (const reply of pending) {
      const status = await ctx.api.get(`/v1/donations/${reply.json.donation.reference}`);
      expect(status.json.donation.status).not.toBe("Pending");
    }
    expect(counted).toMatchObject({ sent: 2, thanks: charged.length, declined: declinedRows.length });
    // Per channel, where its beacons said the session came from.
    expect(counted.channels.find((c) => c.name === "spring-gala")).toMatchObject({
      shown: 1,
      sent: 1,
      thanked: 1,
      declined: 0,
    });
    expect(counted.channels.find((c) => c.name === "newsletter")).toMatchObject({
      shown: 1,
      sent: 1,
      thanked: 0,
      declined: 1,
    });

    // Never twice: further passes, a beacon claiming the thank-you, and the gift replayed.
    expect((await beacon(giver, reached("thanks"))).status).toBe(400);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(await funnel()).toMatchObject({ sent: 2, thanks: 1, declined: 1 });
  }, 60_000);
});

describe.each(["sqlite", "postgres"] as const)(
  "Pending gifts settled by givekit reconcile beside a proxy on %s",
  (store) => {
    // No reconciler on a timer: the command's run is the one that settles them, and counts them in
    // the funnel (PostgreSQL: through the counters it shares with the proxies; SQLite: through the
    // Pending gifts' notes the proxy keeps in the data directory's database).
    const ctx = useStack({
      proxy: {
        store,
        env: {
          GIVEKIT_SIGNING_SECRET: SECRET,
          UPSTREAM_TIMEOUT_MS: "1500",
          GIVEKIT_RECONCILE_INTERVAL_S: "0",
        },
      },
    });
    const { beacon, formSession, gift, funnel, cliEnv } = funnelKit(ctx, store);
    /** The Pending gifts' notes, which the proxy writes beside its answers and the command reads. */
    async function pendingNotes(): Promise<number> {
      let found = 0;
      await withStore(cliEnv(), { write: () => undefined }, false, async (opened) => {
        found = (await opened.sharedNotes.notesUnder(PENDING_FORM_NOTE_PREFIX)).length;
        return 0;
      });
      return found;
    }

    it("their thank-you and decline are counted once, under their channels, by the run that settled them", async () => {
      const giver = await formSession();
      const refused = await formSession();
      expect((await beacon(giver, reached("shown", "amount", "details", "card"))).status).toBe(204);
      expect(
        (await beacon(refused, reached("shown", "amount", "details", "card"), "newsletter")).status,
      ).toBe(204);
      const pending = await Promise.all([
        gift(giver, CARDS.ok, randomUUID(), { amount: "777.77" }),
        gift(refused, CARDS.declined, randomUUID(), { amount: "777.77" }),
      ]);
      expect(pending.map((reply) => reply.status)).toEqual([202, 202]);
      // Counted and noted beside the answers: a loaded machine writes them a moment later.
      await expect.poll(funnel, { timeout: 10_000 }).toMatchObject({ sent: 2, thanks: 0, declined: 0 });
      await expect.poll(pendingNotes, { timeout: 10_000 }).toBe(2);

      const run = await givekit(["reconcile"], cliEnv());
      expect(run.out).toContain(`${pending[0]!.json.donation.reference}: succeeded`);
      expect(run.out).toContain(`${pending[1]!.json.donation.reference}: declined`);
      expect((await collected(ctx.sandbox, "HOPE")).map((row) => row.amount)).toEqual(["777.77"]);
      const declinedRows = await ctx.sandbox.transactions({ keyword: "HOPE", status: "declined" });
      expect(declinedRows.map((row) => row.amount)).toEqual(["777.77"]);
      const counted = await funnel();
      expect(counted).toMatchObject({ sent: 2, thanks: 1, declined: 1 });
      expect(counted.channels.find((c) => c.name === "spring-gala")).toMatchObject({
        sent: 1,
        thanked: 1,
        declined: 0,
      });
      expect(counted.channels.find((c) => c.name === "newsletter")).toMatchObject({
        sent: 1,
        thanked: 0,
        declined: 1,
      });
      // A second run finds nothing unknown, and counts nothing again; nor does a beacon claiming it.
      expect((await givekit(["reconcile"], cliEnv())).out).toContain("0 unknown attempt(s) looked up.");
      expect((await beacon(giver, reached("thanks"))).status).toBe(400);
      expect(await funnel()).toMatchObject({ sent: 2, thanks: 1, declined: 1 });
    }, 60_000);

    it("a session's gifts charged by the proxy and settled by the command, in either order, count one thank-you", async () => {
      const [before, after] = [await formSession(), await formSession()];
      for (const session of [before, after])
        expect((await beacon(session, reached("shown", "amount", "details", "card"))).status).toBe(204);
      // `before`: charged by the proxy, then a gift Pending; `after`: Pending, then charged once settled.
      expect((await gift(before, CARDS.ok, randomUUID(), { amount: "25.00" })).status).toBe(200);
      const pending = await Promise.all([
        gift(before, CARDS.ok, randomUUID(), { amount: "777.77" }),
        gift(after, CARDS.ok, randomUUID(), { amount: "777.77" }),
      ]);
      expect(pending.map((reply) => reply.status)).toEqual([202, 202]);
      await expect.poll(pendingNotes, { timeout: 10_000 }).toBe(2);
      await expect.poll(funnel, { timeout: 10_000 }).toMatchObject({ sent: 2, thanks: 1 });

      const run = await givekit(["reconcile"], cliEnv());
      for (const reply of pending) expect(run.out).toContain(`${reply.json.donation.reference}: succeeded`);
      expect((await funnel()).thanks).toBe(2);
      expect((await gift(after, CARDS.ok, randomUUID(), { amount: "30.00" })).status).toBe(200);
      expect((await collected(ctx.sandbox, "HOPE")).map((row) => row.amount).toSorted()).toEqual([
        "25.00",
        "30.00",
        "777.77",
        "777.77",
      ]);
      // Counted beside its answer: give the proxy's count of the last gift its moment.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(await funnel()).toMatchObject({ sent: 2, thanks: 2, declined: 0 });
    }, 60_000);
  },
);
