// A whole run through every endpoint and fault, then a scan: no token value, card number or CVV in
// any answer or log line, and none of those (nor a payment token) in the store.
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { startProxy, type ProxyHandle } from "../helpers/proxy";
import { startSandbox, type SandboxHandle } from "../helpers/sandbox";
import { startRelay, type Relay } from "./relay";
import {
  CARDS,
  CONSENT_TEXT,
  CVV,
  EXPIRY,
  client,
  donate,
  donationBody,
  leaks,
  readStore,
  received,
  staticSecrets,
  tokenize,
  postCard,
} from "./support";

describe("secrets never leave the proxy", () => {
  let sandbox: SandboxHandle;
  let relay: Relay;
  let proxy: ProxyHandle;
  afterAll(async () => {
    await proxy?.close();
    await relay?.close();
    await sandbox?.close();
  });

  it("after a whole run, no answer, log line or store row holds one", { timeout: 30_000 }, async () => {
    sandbox = await startSandbox({ sessionTtlS: 1 });
    relay = await startRelay(sandbox.url);
    proxy = await startProxy({
      upstreamUrl: relay.url,
      allowedOrigins: ["https://shelter.example"],
      env: { UPSTREAM_TIMEOUT_MS: "600", GIVEKIT_RATE_PAYMENT_TOKENS: "100", GIVEKIT_RATE_DONATIONS: "100" },
    });
    const api = client(proxy.url);
    const paymentTokens: string[] = [];
    const token = async (card: string) => {
      const value = await tokenize(api, card);
      paymentTokens.push(value);
      return value;
    };

    // Cards, with and without spaces; declined and failing ones.
    await postCard(api, {
      card_number: "4242 4242 4242 4242",
      cvv: CVV,
      expiration_date: EXPIRY,
    });
    const ok = await token(CARDS.ok);
    const declined = await token(CARDS.declined);
    const fatal = await token(CARDS.fatal);

    // Donations of every outcome.
    await donate(api, donationBody(ok, { cover_fee: true, peer_fundraiser_id: "101" }), randomUUID(), {
      Origin: "https://shelter.example",
    });
    await donate(api, donationBody(declined));
    await donate(api, donationBody(fatal));
    await donate(api, donationBody(ok, { peer_fundraiser_id: "201" }));
    for (const amount of ["666.66", "777.77", "888.88"]) await donate(api, donationBody(ok, { amount }));

    // Bad input that carries card data where it does not belong.
    const cardFields = { card_number: CARDS.ok, cvv: CVV, expiration_date: EXPIRY };
    await donate(api, { ...donationBody(ok), ...cardFields });
    await postCard(api, { ...cardFields, card_number: `${CARDS.ok}0` });
    await postCard(api, { ...cardFields, cvv: `${CVV}99` });
    await postCard(api, cardFields, { headers: { "Content-Type": "text/plain" } });
    await postCard(api, cardFields, { headers: { Origin: "https://evil.example" } });
    await api.post("/v1/payment-tokens", undefined, { raw: `{"card_number":"${CARDS.ok}",` });

    // Opt-ins, peers, campaigns.
    await api.post("/v1/subscriptions", {
      mobilenumber: "5550101234",
      list: "Hope Alerts",
      consent: true,
      consent_text: CONSENT_TEXT,
    });
    await api.post("/v1/subscriptions", {
      mobilenumber: "5550101234",
      list: "Hope Alerts",
      consent: false,
      consent_text: CONSENT_TEXT,
    });
    await api.get("/v1/campaigns/71777/HOPE/peers?q=a");
    await api.get("/v1/campaigns/71777/HOPE");

    // A session expires and is renewed.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    await donate(api, donationBody(await token(CARDS.ok), { amount: "12.00" }));

    const sessionTokens = [...relay.answers().matchAll(/"session_token":"([^"]+)"/g)].map(
      (match) => match[1]!,
    );
    expect(sessionTokens.length).toBeGreaterThanOrEqual(2);
    expect(paymentTokens).toHaveLength(4);

    // The scan sees what it should: payment tokens are in the answers that hand them out.
    expect(leaks(received, paymentTokens)).toHaveLength(paymentTokens.length);

    const secrets = [...staticSecrets(), ...sessionTokens];
    expect(leaks(received, secrets)).toEqual([]);
    expect(leaks(proxy.logs, [...secrets, ...paymentTokens])).toEqual([]);

    const store = readStore(proxy.dataDir);
    expect(store.attempts.length).toBeGreaterThanOrEqual(8);
    const files = readdirSync(proxy.dataDir).map((name) =>
      readFileSync(join(proxy.dataDir, name)).toString("latin1"),
    );
    expect(leaks([JSON.stringify(store), ...files], [...secrets, ...paymentTokens])).toEqual([]);
  });
});
