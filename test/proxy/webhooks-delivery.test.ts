// Webhooks end to end: a proxy in front of the sandbox, a nonprofit's receiver on 127.0.0.1.
// Gifts charged (in the sandbox's own report) reach the receiver as signed events, retried with
// backoff, in order, without the donor's answer ever waiting; no payload holds a card or a token.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "../helpers/postgres";
import { openSqlite } from "../../sqlite/open";
import {
  CARDS,
  CONSENT_TEXT,
  collected,
  CVV,
  donate,
  donationBody,
  staticSecrets,
  storeRows,
  tokenize,
  useStack,
  type Stack,
} from "./support";
import { guideVerifier, startReceiver, webhooksEnv, type Receiver, type Verify } from "./webhooks-receiver";

const SECRET = "whsec-crm-0123456789abcdefghij";
/** Every body any receiver of this file got, for the scan at the end. */
const bodies: string[] = [];
/** The card tokens this file's donations used. */
const tokens: string[] = [];
let verify: Verify;
beforeAll(async () => {
  verify = await guideVerifier();
});

/** The outbox rows of a proxy's store. */
function outbox(ctx: Stack): Promise<Record<string, unknown>[]> {
  if (ctx.proxy.databaseUrl) return sql(ctx.proxy.databaseUrl, "SELECT * FROM webhook_outbox ORDER BY seq");
  const db = openSqlite(`${ctx.proxy.dataDir}/givekit.db`, { readonly: true, fileMustExist: true });
  try {
    return Promise.resolve(
      db.prepare("SELECT * FROM webhook_outbox ORDER BY seq").all() as Record<string, unknown>[],
    );
  } finally {
    db.close();
  }
}

async function gift(ctx: Stack, fields: Record<string, unknown> = {}, card: string = CARDS.ok) {
  const token = await tokenize(ctx.api, card);
  tokens.push(token);
  const started = performance.now();
  const reply = await donate(ctx.api, donationBody(token, fields));
  const ms = performance.now() - started;
  // The attempt's reference, as the store keeps it (a Success answer does not repeat it).
  const attempts = (await storeRows(ctx.proxy)).attempts;
  return { reply, ms, reference: attempts[attempts.length - 1]!.reference };
}

function useReceiverStack(
  events: string[],
  answer?: Receiver["answer"],
  endpoint: Record<string, unknown> = {},
) {
  const box = { receiver: undefined as unknown as Receiver };
  const env: Record<string, string> = { GIVEKIT_WEBHOOK_BACKOFF_MS: "200", GIVEKIT_RATE_DONATIONS: "1000" };
  beforeAll(async () => {
    box.receiver = await startReceiver(answer);
    env.GIVEKIT_WEBHOOKS = webhooksEnv({ url: box.receiver.url, secret: SECRET, events, ...endpoint });
  });
  afterAll(async () => {
    bodies.push(...box.receiver.deliveries.map((delivery) => delivery.body));
    await box.receiver.close();
  });
  const ctx = useStack({ proxy: { env } });
  return { ctx, box };
}

describe("a receiver that fails three deliveries, then succeeds", () => {
  const { ctx, box } = useReceiverStack(["donation.succeeded"], (_delivery, index) =>
    index < 3 ? 500 : 200,
  );

  it("gets the gift once accepted after backoff, every try signed as the GUIDE's Node snippet checks", async () => {
    const { reply, reference } = await gift(ctx, { amount: "42.00" });
    expect(reply.status).toBe(200);
    const [row] = await collected(ctx.sandbox);
    expect(row).toMatchObject({ amount: "42.00", transaction_id: reply.json.donation.transaction_id });

    const receiver = box.receiver;
    await receiver.until(() => receiver.accepted().length === 1);
    const tries = receiver.deliveries;
    expect(tries.map((delivery) => delivery.status)).toEqual([500, 500, 500, 200]);
    // One event, tried four times: the same id and body each time.
    expect(new Set(tries.map((delivery) => delivery.headers["givekit-event-id"])).size).toBe(1);
    expect(new Set(tries.map((delivery) => delivery.body)).size).toBe(1);
    for (const delivery of tries) {
      expect(verify(SECRET, delivery.body, delivery.headers["givekit-signature"] as string)).toBe(true);
      expect(
        verify(
          SECRET,
          delivery.body.replace("4200", "4201"),
          delivery.headers["givekit-signature"] as string,
        ),
      ).toBe(false);
    }
    // Backoff: each wait at least half the one before doubled (equal jitter), the first ≥ 100 ms.
    const waits = tries.slice(1).map((delivery, i) => delivery.at - tries[i]!.at);
    expect(waits[0]).toBeGreaterThanOrEqual(100);
    expect(waits[1]).toBeGreaterThanOrEqual(200);
    expect(waits[2]).toBeGreaterThanOrEqual(400);
    const [event] = receiver.accepted();
    expect(event).toMatchObject({
      type: "donation.succeeded",
      version: 1,
      data: {
        reference,
        campaign_id: "71777/HOPE",
        amount_cents: 4200,
        currency: "USD",
        transaction_id: reply.json.donation.transaction_id,
        donor: { first_name: "Ana", last_name: "Doe", email: "ana@example.org" },
      },
    });
    // The store's own record: delivered, after four tries.
    await expect
      .poll(async () => (await outbox(ctx)).map((r) => [r.state, r.attempts, r.last_status]))
      .toEqual([["delivered", 4, 200]]);
  });
});

describe("a gift with a dedication", () => {
  const { ctx, box } = useReceiverStack(["donation.succeeded", "dedication.made", "donation.declined"]);

  it("reaches the receiver as donation.succeeded, then dedication.made with the honoree's name and e-mail", async () => {
    const dedication = { kind: "memory", name: "Jane Doe", notify_email: "jane@example.org" };
    const { reply, reference } = await gift(ctx, { amount: "40.00", dedication });
    expect(reply.status).toBe(200);
    expect(await collected(ctx.sandbox)).toHaveLength(1);
    const receiver = box.receiver;
    await receiver.until(() => receiver.accepted().length === 2);
    const [succeeded, made] = receiver.accepted();
    expect(succeeded!.type).toBe("donation.succeeded");
    expect(made).toMatchObject({
      type: "dedication.made",
      data: {
        reference,
        kind: "memory",
        honoree_name: "Jane Doe",
        notify_email: "jane@example.org",
        donor: { first_name: "Ana", last_name: "Doe" },
        amount_cents: 4000,
      },
    });
    expect(made!.id).not.toBe(succeeded!.id);
  });

  it("tells of a declined card as donation.declined, and of no dedication for it", async () => {
    const receiver = box.receiver;
    const before = receiver.accepted().length;
    const { reply, reference } = await gift(
      ctx,
      { dedication: { kind: "honor", name: "Sam" } },
      CARDS.declined,
    );
    expect(reply.status).toBe(402);
    expect(await collected(ctx.sandbox)).toHaveLength(0);
    await receiver.until(() => receiver.accepted().length === before + 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(
      receiver
        .accepted()
        .slice(before)
        .map((event) => [event.type, event.data.reference]),
    ).toEqual([["donation.declined", reference]]);
  });
});

describe("an SMS opt-in", () => {
  const { ctx, box } = useReceiverStack(["optin.recorded"]);

  it("reaches the receiver as optin.recorded with the consent text's SHA-256", async () => {
    const reply = await ctx.api.post("/v1/subscriptions", {
      mobilenumber: "+1 (555) 010-1234",
      list: "Hope Alerts",
      consent: true,
      consent_text: CONSENT_TEXT,
    });
    expect(reply.status).toBe(201);
    const receiver = box.receiver;
    await receiver.until(() => receiver.accepted().length === 1);
    expect(receiver.accepted()[0]).toMatchObject({
      type: "optin.recorded",
      data: {
        campaign_id: "Hope Alerts",
        phone: "5550101234",
        consent_text_sha256: createHash("sha256").update(CONSENT_TEXT).digest("hex"),
      },
    });
  });
});

describe("a receiver that never answers", () => {
  const { ctx, box } = useReceiverStack(["donation.succeeded"], () => "hang");

  it("never holds up a donor's answer", async () => {
    for (let i = 0; i < 3; i++) {
      const { reply, ms } = await gift(ctx, { amount: `${10 + i}.00` });
      expect(reply.status).toBe(200);
      expect(ms).toBeLessThan(2000);
    }
    expect(await collected(ctx.sandbox)).toHaveLength(3);
    await box.receiver.until(() => box.receiver.deliveries.length >= 1);
  });
});

describe("an endpoint on a private address without allow_private", () => {
  const { ctx, box } = useReceiverStack(["donation.succeeded"], undefined, { allow_private: false });

  it("is refused and never called; the gift is charged and answered as ever", async () => {
    const { reply } = await gift(ctx);
    expect(reply.status).toBe(200);
    await expect
      .poll(async () => (await outbox(ctx)).map((row) => [row.state, row.last_error]))
      .toEqual([["pending", "endpoint resolves to a private address"]]);
    expect(box.receiver.deliveries).toHaveLength(0);
  });
});

describe("an endpoint that redirects", () => {
  let elsewhere: Receiver;
  beforeAll(async () => {
    elsewhere = await startReceiver();
  });
  afterAll(() => elsewhere.close());
  const { ctx, box } = useReceiverStack(["donation.succeeded"], () => ({
    status: 307,
    headers: { location: elsewhere.url },
  }));

  it("is not followed: the try fails and is retried at the same address", async () => {
    await gift(ctx);
    await box.receiver.until(() => box.receiver.deliveries.length >= 2);
    expect(elsewhere.deliveries).toHaveLength(0);
    const [row] = await outbox(ctx);
    expect(row).toMatchObject({ state: "pending", last_status: 307, last_error: "redirect not followed" });
  });
});

describe("gifts answered Pending, settled by the reconciler", () => {
  let receiver: Receiver;
  const env: Record<string, string> = {
    GIVEKIT_WEBHOOK_BACKOFF_MS: "200",
    UPSTREAM_TIMEOUT_MS: "800",
    GIVEKIT_RECONCILE_INTERVAL_S: "1",
    GIVEKIT_RECONCILE_SETTLE_S: "2",
  };
  beforeAll(async () => {
    receiver = await startReceiver();
    env.GIVEKIT_WEBHOOKS = webhooksEnv({
      url: receiver.url,
      secret: SECRET,
      events: ["donation.succeeded", "donation.settled", "dedication.made"],
    });
  });
  afterAll(async () => {
    bodies.push(...receiver.deliveries.map((delivery) => delivery.body));
    await receiver.close();
  });
  const ctx = useStack({ proxy: { env } });

  it("tell of the charged one as any gift, then as settled; of the other as settled, not charged, only", async () => {
    // 777.77: charged, never answered; 999.99: never answered, never charged (the sandbox's faults).
    const dedication = { kind: "honor", name: "Grandma Rose", notify_email: "rose@example.org" };
    const charged = await gift(ctx, { amount: "777.77", dedication });
    const lost = await gift(ctx, { amount: "999.99", dedication });
    expect([charged.reply.status, lost.reply.status]).toEqual([202, 202]);
    await receiver.until(() => receiver.accepted().length === 4);
    const [row] = await collected(ctx.sandbox);
    const of = (reference: string) =>
      receiver
        .accepted()
        .filter((event) => event.data.reference === reference)
        .map((event) => [event.type, event.data]);
    // The gift, its tribute and its settlement, in that order; the transaction the report found.
    expect(of(charged.reference)).toEqual([
      [
        "donation.succeeded",
        expect.objectContaining({ amount_cents: 77777, transaction_id: row!.transaction_id }),
      ],
      [
        "dedication.made",
        expect.objectContaining({ honoree_name: "Grandma Rose", notify_email: "rose@example.org" }),
      ],
      [
        "donation.settled",
        expect.objectContaining({ outcome: "charged", transaction_id: row!.transaction_id }),
      ],
    ]);
    // Nothing was charged: no gift and no tribute told of.
    expect(of(lost.reference)).toEqual([
      ["donation.settled", expect.objectContaining({ outcome: "not_charged", amount_cents: 99999 })],
    ]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.accepted()).toHaveLength(4);
  });
});

/** 13 to 19 digits, spaced or not, neither glued to letters nor part of a longer number. */
const CARD_LIKE = /(?<![\w-])\d(?:[ -]?\d){12,18}(?![\w-])/;

// Last in the file: every describe above has handed in what its receiver got.
describe("every payload any receiver got", () => {
  it("holds no card number, payment token, API token or CVV", () => {
    expect(bodies.length).toBeGreaterThan(0);
    const secrets = [...staticSecrets(), ...tokens, ...Object.values(CARDS)];
    expect(secrets.filter((secret) => bodies.some((body) => body.includes(secret)))).toEqual([]);
    // The CVV's three digits turn up in times and random references: it is looked for as a value.
    expect(bodies.filter((body) => new RegExp(`[":]${CVV}["},]`).test(body))).toEqual([]);
    // No 13-19 digit number standing alone (a card number) in any payload, whatever its card; a
    // digit run inside a random reference ("gk_c9756830340454453d6b") is no number.
    expect(
      bodies.filter((body) => CARD_LIKE.test(body.replace(/"(created|recorded_at)":"[^"]*"/g, ""))),
    ).toEqual([]);
  });
});
