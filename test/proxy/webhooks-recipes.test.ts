// The GUIDE's webhook recipes, word for word, as a nonprofit would save them: the tribute notice,
// a CRM row per gift and a Slack message per gift over an amount, each a receiver on 127.0.0.1
// that the proxy delivers to; and every payload a receiver gets, through the GUIDE's skeleton and
// its verifier. Gifts are checked in the sandbox's own report.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CARDS, collected, donate, donationBody, tokenize, useStack } from "./support";
import { startReceiver, webhooksEnv, type Receiver } from "./webhooks-receiver";

const guide = readFileSync(join(__dirname, "../../proxy/GUIDE.md"), "utf8");
/** The code block after `<!-- marker -->` in the GUIDE. */
function snippet(marker: string): string {
  const match = new RegExp(`<!-- ${marker} -->\\s*\`\`\`js\\n([\\s\\S]*?)\`\`\``).exec(guide);
  if (!match) throw new Error(`proxy/GUIDE.md has no ${marker} snippet`);
  return match[1]!;
}

type Mail = { to: string; subject: string; text: string };
type Recipes = {
  tributeReceiver(secret: string, sendMail: (mail: Mail) => Promise<void>): Server;
  crmReceiver(secret: string, csvPath: string): Server;
  slackReceiver(secret: string, slackWebhookUrl: string, minimumCents?: number): Server;
  givekitReceiver(secret: string, onEvent: (event: GivekitPayload) => Promise<void>): Server;
};
type GivekitPayload = { id: string; type: string; data: Record<string, unknown> };

const SECRETS = {
  tribute: "whsec-tribute-0123456789abcdef",
  crm: "whsec-crm-rows-0123456789abcdef",
  slack: "whsec-slack-msg-0123456789abcdef",
  every: "whsec-every-event-0123456789abcdef",
};
const dir = mkdtempSync(join(tmpdir(), "givekit-recipes-"));
const csvPath = join(dir, "gifts.csv");
const mails: Mail[] = [];
let slack: Receiver;
const servers: Server[] = [];
const urls = { tribute: "", crm: "", slack: "", every: "" };
/** Every event the GUIDE's skeleton (and so its verifier) accepted, as its handler got it. */
const verified: GivekitPayload[] = [];
const env: Record<string, string> = { GIVEKIT_WEBHOOK_BACKOFF_MS: "200", GIVEKIT_RATE_DONATIONS: "1000" };

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/givekit`;
}

beforeAll(async () => {
  writeFileSync(join(dir, "verify.mjs"), snippet("webhook-verify-node"));
  writeFileSync(join(dir, "receiver.mjs"), snippet("webhook-receiver-node"));
  const recipes = {} as Recipes;
  for (const name of ["tribute", "crm", "slack", "receiver"]) {
    if (name !== "receiver") writeFileSync(join(dir, `${name}.mjs`), snippet(`webhook-recipe-${name}`));
    Object.assign(recipes, await import(pathToFileURL(join(dir, `${name}.mjs`)).href));
  }
  slack = await startReceiver();
  urls.tribute = await listen(
    recipes.tributeReceiver(SECRETS.tribute, async (mail) => void mails.push(mail)),
  );
  urls.crm = await listen(recipes.crmReceiver(SECRETS.crm, csvPath));
  urls.slack = await listen(recipes.slackReceiver(SECRETS.slack, slack.url, 100_00));
  urls.every = await listen(
    recipes.givekitReceiver(SECRETS.every, async (event) => void verified.push(event)),
  );
  env.GIVEKIT_WEBHOOKS = webhooksEnv(
    { url: urls.tribute, secret: SECRETS.tribute, events: ["dedication.made"] },
    { url: urls.crm, secret: SECRETS.crm, events: ["donation.succeeded"] },
    { url: urls.slack, secret: SECRETS.slack, events: ["donation.succeeded"] },
    {
      url: urls.every,
      secret: SECRETS.every,
      events: ["donation.succeeded", "donation.declined", "dedication.made"],
    },
  );
});
afterAll(async () => {
  for (const server of servers) server.close();
  await slack.close();
});

/** The verified events of the full-name and declined gifts (by their donors' e-mails and honoree). */
const fullNameAndDeclined = () =>
  verified.filter(
    (event) =>
      ["dee@example.org", "sam.ro@example.org"].includes(
        (event.data.donor as { email?: string } | undefined)?.email ?? "",
      ) || event.data.honoree_name === "Grandma Li",
  );

const csvRows = () => {
  try {
    return readFileSync(csvPath, "utf8").split("\n").filter(Boolean);
  } catch {
    return [];
  }
};

async function until(test: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) throw new Error("not reached");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("the GUIDE's webhook recipes against a proxy", () => {
  const ctx = useStack({ proxy: { env } });

  it("send a tribute notice, write a CRM row per gift and post to Slack for a gift over 100.00", async () => {
    const give = async (fields: Record<string, unknown>, card: string = CARDS.ok) =>
      donate(ctx.api, donationBody(await tokenize(ctx.api, card), fields));
    const memorial = await give({
      amount: "40.00",
      dedication: { kind: "memory", name: "Jane Doe", notify_email: "family@example.org" },
    });
    const large = await give({
      amount: "250.00",
      donor: { first_name: "=cmd", last_name: "Rivera", email: "sam@example.org" },
    });
    // An honor without an address: nobody to tell.
    const honor = await give({ amount: "15.00", dedication: { kind: "honor", name: "Grandpa Joe" } });
    const declined = await give({ amount: "500.00" }, CARDS.declined);
    expect([memorial.status, large.status, honor.status, declined.status]).toEqual([200, 200, 200, 402]);
    const charged = await collected(ctx.sandbox);
    expect(charged.map((row) => row.amount).toSorted()).toEqual(["15.00", "250.00", "40.00"]);

    await until(() => csvRows().length === 3 && mails.length === 1 && slack.accepted().length === 1);
    expect(mails).toEqual([
      {
        to: "family@example.org",
        subject: "A gift in memory of Jane Doe",
        text: "Ana Doe has made a gift to our work in memory of Jane Doe.",
      },
    ]);
    // One row per charged gift, each with the sandbox's transaction id; the formula defused.
    const rows = csvRows();
    for (const row of charged) {
      expect(rows.filter((line) => line.includes(`"${row.transaction_id}"`))).toHaveLength(1);
    }
    expect(rows.find((line) => line.includes('"250.00"'))).toContain(`"'=cmd Rivera","sam@example.org"`);
    expect(JSON.parse(slack.deliveries[0]!.body)).toEqual({
      text: "=cmd Rivera gave 250.00 USD to 71777/HOPE",
    });
    // Nothing more comes: each event's work was done once.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect([csvRows().length, mails.length, slack.deliveries.length]).toEqual([3, 1, 1]);
  });

  it("a full-name gift names its donor in every recipe and payload; a declined gift's payload carries the donor's answer as reason", async () => {
    const [mailsBefore, rowsBefore, slackBefore] = [mails.length, csvRows().length, slack.deliveries.length];
    const give = async (fields: Record<string, unknown>, card: string = CARDS.ok) =>
      donate(ctx.api, donationBody(await tokenize(ctx.api, card), fields));
    const fullName = await give({
      amount: "300.00",
      donor: { full_name: "Mx Sam Rivera-Okafor", email: "sam.ro@example.org" },
      dedication: { kind: "honor", name: "Grandma Li", notify_email: "li.family@example.org" },
    });
    const declined = await give(
      { amount: "60.00", donor: { full_name: "Dee Klein", email: "dee@example.org" } },
      CARDS.declined,
    );
    expect([fullName.status, declined.status]).toEqual([200, 402]);
    // The donor was answered card_declined; the sandbox charged the full-name gift alone.
    expect(declined.json.code).toBe("card_declined");
    const charged = (await collected(ctx.sandbox)).filter((row) => row.amount === "300.00");
    expect(charged).toHaveLength(1);

    await until(
      () =>
        fullNameAndDeclined().length === 3 &&
        mails.length === mailsBefore + 1 &&
        csvRows().length === rowsBefore + 1 &&
        slack.accepted().length === slackBefore + 1,
    );
    const byType = Object.fromEntries(fullNameAndDeclined().map((event) => [event.type, event.data]));
    expect(byType["donation.declined"]).toMatchObject({
      amount_cents: 6000,
      reason: "card_declined",
      donor: { name: "Dee Klein", email: "dee@example.org" },
    });
    expect(byType["donation.succeeded"]).toMatchObject({
      amount_cents: 30000,
      transaction_id: charged[0]!.transaction_id,
      donor: { name: "Mx Sam Rivera-Okafor", email: "sam.ro@example.org" },
    });
    expect(byType["dedication.made"]).toMatchObject({
      honoree_name: "Grandma Li",
      donor: { name: "Mx Sam Rivera-Okafor" },
    });
    expect(mails.at(-1)).toEqual({
      to: "li.family@example.org",
      subject: "A gift in honor of Grandma Li",
      text: "Mx Sam Rivera-Okafor has made a gift to our work in honor of Grandma Li.",
    });
    expect(csvRows().find((line) => line.includes('"300.00"'))).toContain(
      `"Mx Sam Rivera-Okafor","sam.ro@example.org"`,
    );
    expect(JSON.parse(slack.deliveries.at(-1)!.body)).toEqual({
      text: "Mx Sam Rivera-Okafor gave 300.00 USD to 71777/HOPE",
    });
  });

  it("the skeleton refuses a forged delivery (400) and does nothing with it", async () => {
    const body = JSON.stringify({
      id: "evt_forged",
      type: "dedication.made",
      version: 1,
      created: new Date().toISOString(),
      data: { kind: "memory", honoree_name: "Nobody", notify_email: "victim@example.org" },
    });
    const t = Math.floor(Date.now() / 1000);
    const forged = await fetch(urls.tribute, {
      method: "POST",
      headers: { "content-type": "application/json", "givekit-signature": `t=${t},v1=${"0".repeat(64)}` },
      body,
    });
    expect(forged.status).toBe(400);
    const unsigned = await fetch(urls.tribute, { method: "POST", body });
    expect(unsigned.status).toBe(400);
    expect(mails.filter((mail) => mail.to === "victim@example.org")).toEqual([]);
  });
});
