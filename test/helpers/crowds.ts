/**
 * Crowds and card testers against the proxy's defaults, as they arrive on a nonprofit's busiest
 * night: the scenarios behind proxy/GUIDE.md's "Crowds and card testers" figures, run by the
 * crowd tests (test/proxy/defence/crowds.test.ts) and by `npm run bench` (its crowd part).
 * Every request goes through the proxy's public API as the card frame and the widget send it
 * (a form session asked for when the frame opens, the card after the donor's time in the form,
 * then the donation), from the address the scenario says (X-Forwarded-For, one trusted hop).
 * Money is counted in the sandbox's own report; each scenario has a sandbox of its own.
 */
import { randomBytes, randomInt, randomUUID } from "node:crypto";
import { withCheckDigit } from "./cards";
import { LOG_FLUSH_MS } from "../../proxy/logger";
import { startProxy, type ProxyHandle } from "./proxy";
import { startSandbox } from "./sandbox";

/** What a scenario needs of its stack: the proxies' URLs (requests spread over them, as a load balancer does) and the sandbox. */
export interface CrowdStack {
  proxyUrls: string[];
  /** The sandbox's report rows for the demo account: `status` and `amount`, `last_4`. */
  transactions(): Promise<{ status: string; amount: string; last_4?: string }[]>;
  /** Paths the sandbox was asked, in order. */
  requestPaths(): Promise<string[]>;
  /** A Turnstile proof the fake verifier passes, when the stack has a challenge configured. */
  passChallenge?: () => string;
  /** The proxies' log lines, parsed. */
  logLines(): Record<string, unknown>[];
  close(): Promise<void>;
}

/** The defaults the scenarios run with (the test helper's proxies post at machine speed: not these). */
const DEFAULTS = { GIVEKIT_MIN_FORM_MS: "1500", GIVEKIT_TRUST_PROXY: "1", LOG_LEVEL: "warn" };

/** A proxy for a crowd stack: in this process (the default), or a program of its own. */
export interface CrowdProxy {
  url: string;
  /** Its log lines so far (JSON, one a line). */
  logs(): string[];
  close(): Promise<void>;
}
export type ProxyLauncher = (upstreamUrl: string, env: Record<string, string>) => Promise<CrowdProxy>;

const inProcess: ProxyLauncher = async (upstreamUrl, env) => {
  const proxy: ProxyHandle = await startProxy({ upstreamUrl, env });
  return { url: proxy.url, logs: () => proxy.logs, close: () => proxy.close() };
};

/**
 * A sandbox and, with `databaseUrl`, two proxies on that PostgreSQL database (a load balancer in
 * front: requests alternate), else one on SQLite; `challenge`: the TURNSTILE_* variables of a
 * fake verifier that passes "good-…" proofs (e2e/turnstile-fake.ts).
 */
export async function startCrowdStack(options: {
  databaseUrl?: string;
  challenge?: Record<string, string>;
  launch?: ProxyLauncher;
}): Promise<CrowdStack> {
  const launch = options.launch ?? inProcess;
  const sandbox = await startSandbox();
  const env = { ...DEFAULTS, ...options.challenge };
  const proxies: CrowdProxy[] = [];
  if (!options.databaseUrl) proxies.push(await launch(sandbox.url, env));
  else {
    const shared = {
      ...env,
      DATABASE_URL: options.databaseUrl,
      GIVEKIT_SIGNING_SECRET: randomBytes(32).toString("hex"),
    };
    proxies.push(...(await Promise.all([launch(sandbox.url, shared), launch(sandbox.url, shared)])));
  }
  return {
    proxyUrls: proxies.map((proxy) => proxy.url),
    transactions: () => sandbox.transactions(),
    requestPaths: async () => (await sandbox.requests()).map((request) => request.path),
    ...(options.challenge ? { passChallenge: () => `good-${randomBytes(8).toString("hex")}` } : {}),
    logLines: () =>
      proxies.flatMap((proxy) =>
        proxy
          .logs()
          .filter((line) => line.startsWith("{"))
          .map((line) => JSON.parse(line) as Record<string, unknown>),
      ),
    async close() {
      await Promise.all(proxies.map((proxy) => proxy.close()));
      await sandbox.close();
    },
  };
}

export interface ScenarioFigures {
  scenario: string;
  /** People with a good card, and how many of them were charged exactly once. */
  goodCards: number;
  charged: number;
  /** Bot donations that reached the upstream (declined rows), and its card tokenizations there. */
  botDonations: number;
  botTokenizations: number;
  /** Why the people who were not charged were refused (`code` → count). */
  refused: Record<string, number>;
  /** Defence mode's entries: `scope signal (challenge)`. */
  defence: string[];
  wallS: number;
}

const CAMPAIGN = { shortcode: "71777", keyword: "HOPE" };
const TOKEN_PATH = "/api/v2/donations/create_payment_token";
const EXPIRY = "12/2031";
/** The proxies' least form time by default (GIVEKIT_MIN_FORM_MS): a bot waits it out. */
const MIN_FORM_MS = 1500;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

interface Answer {
  status: number;
  code?: string;
  json: Record<string, unknown>;
}

let turn = 0;
async function post(
  stack: CrowdStack,
  path: string,
  body: unknown,
  ip: string,
  headers = {},
): Promise<Answer> {
  const url = stack.proxyUrls[turn++ % stack.proxyUrls.length]!;
  try {
    const response = await fetch(url + path, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Forwarded-For": ip, ...headers },
      body: JSON.stringify(body),
    });
    const json = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    return { status: response.status, code: typeof json.code === "string" ? json.code : undefined, json };
  } catch {
    return { status: 0, code: "network_error", json: {} };
  }
}

/** A Luhn-valid Visa number as a person carries one: any issuer, any account. */
export function goodCard(): string {
  for (;;) {
    const digits = withCheckDigit(`4${Array.from({ length: 14 }, () => randomInt(10)).join("")}`);
    if (!digits.endsWith("0002") && !digits.endsWith("0119")) return digits;
  }
}

/** A person's card that the sandbox declines (it declines every number ending 0002): any issuer. */
function declinedCard(): string {
  return withCheckDigit(`4${Array.from({ length: 10 }, () => randomInt(10)).join("")}`, "0002");
}

/** A card the sandbox declines, as testers' lists are: one BIN, numbers one after another. */
const deadCard = (n: number) => withCheckDigit(`4${String(n).padStart(10, "0")}`, "0002");

const cardBody = (number: string, formSession: string, extra: Record<string, unknown> = {}) => ({
  card_number: number,
  cvv: "123",
  expiration_date: EXPIRY,
  website: "",
  form_session: formSession,
  ...CAMPAIGN,
  ...extra,
});

async function session(stack: CrowdStack, ip: string): Promise<string | null> {
  const answer = await post(stack, "/v1/form-sessions", {}, ip);
  return answer.status === 201 ? String(answer.json.form_session) : null;
}

/** The card step: the frame's request, and the challenge a person passes when asked (a bot cannot). */
async function tokenize(stack: CrowdStack, number: string, formSession: string, ip: string, person: boolean) {
  const first = await post(stack, "/v1/payment-tokens", cardBody(number, formSession), ip);
  if (first.code !== "challenge_required" || !person || !stack.passChallenge) return first;
  return post(
    stack,
    "/v1/payment-tokens",
    cardBody(number, formSession, { challenge_token: stack.passChallenge() }),
    ip,
  );
}

async function donate(stack: CrowdStack, token: string, amount: string, ip: string): Promise<Answer> {
  return post(
    stack,
    "/v1/donations",
    {
      ...CAMPAIGN,
      amount,
      donor: { first_name: "Guest", last_name: "Donor", email: "guest@example.org" },
      credit_card_token: token,
    },
    ip,
    { "Idempotency-Key": randomUUID() },
  );
}

interface Person {
  ip: string;
  card: string;
  /** Unique per person, so the report says who was charged. */
  amount: string;
  /** When the frame opens, and how long the person then spends in the form, in ms. */
  opensAtMs: number;
  formMs: number;
}

/**
 * People who each open the form, spend their time in it and give once. Arrivals (when they press
 * Donate) spread evenly at random over `windowS` after the first `leadS`; each spends 20 to 90 s
 * in the form (as much of it as their arrival allows).
 */
function people(
  count: number,
  ip: (i: number) => string,
  windowS: number,
  leadS = 20,
  declined = 0,
): Person[] {
  return Array.from({ length: count }, (_, i) => {
    const arrivesMs = (leadS + Math.random() * windowS) * 1000;
    const formMs = (20 + Math.random() * (Math.min(90, arrivesMs / 1000) - 20)) * 1000;
    return {
      ip: ip(i),
      // The first `declined` people carry a card the sandbox declines, as some in every crowd do.
      card: i < declined ? declinedCard() : goodCard(),
      amount: `${20 + i}.${String(i % 100).padStart(2, "0")}`,
      opensAtMs: arrivesMs - formMs,
      formMs,
    };
  });
}

async function runPeople(stack: CrowdStack, crowd: Person[]): Promise<Record<string, number>> {
  const refused: Record<string, number> = {};
  const began = Date.now();
  await Promise.all(
    crowd.map(async (person) => {
      await sleep(began + person.opensAtMs - Date.now());
      const formSession = await session(stack, person.ip);
      await sleep(person.formMs);
      const why = await (async () => {
        if (!formSession) return "no_form_session";
        const token = await tokenize(stack, person.card, formSession, person.ip, true);
        if (token.status !== 201) return token.code ?? String(token.status);
        const gift = await donate(stack, String(token.json.token), person.amount, person.ip);
        return gift.status === 200 ? null : (gift.code ?? String(gift.status));
      })();
      if (why && !person.card.endsWith("0002")) refused[why] = (refused[why] ?? 0) + 1;
    }),
  );
  return refused;
}

/** Good cards charged exactly once each, per the sandbox's report. */
async function chargedOnce(stack: CrowdStack, crowd: Person[]): Promise<number> {
  const rows = (await stack.transactions()).filter((row) => row.status === "collected");
  const byAmount = new Map<string, number>();
  for (const row of rows) byAmount.set(row.amount, (byAmount.get(row.amount) ?? 0) + 1);
  return crowd.filter((person) => !person.card.endsWith("0002") && byAmount.get(person.amount) === 1).length;
}

/**
 * A tester's run: `cards` dead cards from the addresses it has. It has learnt every cheap filter:
 * it opens a frame for a form session per three cards (all it could get), waits out the least form
 * time once, then sends card after card, `perSecond` a second or `workers` at a time, and
 * donates on every token it gets.
 */
async function runBot(
  stack: CrowdStack,
  options: { cards: number; address: (n: number) => string } & ({ perSecond: number } | { workers: number }),
): Promise<void> {
  const asked = await Promise.all(
    Array.from({ length: Math.ceil(options.cards / 3) }, (_, i) => session(stack, options.address(i * 3))),
  );
  const sessions = asked.filter((text) => text !== null);
  if (sessions.length === 0) return;
  await sleep(MIN_FORM_MS + 100);
  const attempt = async (n: number) => {
    const ip = options.address(n);
    const token = await tokenize(
      stack,
      deadCard(n),
      sessions[Math.floor(n / 3) % sessions.length]!,
      ip,
      false,
    );
    if (token.status === 201) await donate(stack, String(token.json.token), "5.00", ip);
  };
  if ("perSecond" in options) {
    const began = Date.now();
    await Promise.all(
      Array.from({ length: options.cards }, async (_, n) => {
        await sleep(began + (n * 1000) / options.perSecond - Date.now());
        await attempt(n);
      }),
    );
    return;
  }
  let next = 0;
  const worker = async () => {
    while (next < options.cards) await attempt(next++);
  };
  await Promise.all(Array.from({ length: options.workers }, worker));
}

async function botFigures(stack: CrowdStack) {
  const rows = await stack.transactions();
  const paths = await stack.requestPaths();
  return {
    botDonations: rows.filter((row) => row.status === "declined").length,
    botTokenizations: paths.filter((path) => path === TOKEN_PATH).length,
  };
}

export type ScenarioName = "gala" | "giving-day" | "bot-spread" | "bot-paced" | "burst";
export const SCENARIO_NAMES: ScenarioName[] = ["gala", "giving-day", "bot-spread", "bot-paced", "burst"];

/** What each scenario is, in the words proxy/GUIDE.md uses. */
export const SCENARIOS: Record<ScenarioName, string> = {
  gala: "a gala: 60 guests behind one address give within 60 s, each with their own card, 20-90 s in the form",
  "giving-day": "a giving-day peak: 240 donors from 240 addresses within 60 s, 5 % of cards declined",
  "bot-spread": "a tester over 100 addresses: 300 dead cards (one BIN, ending 0002)",
  "bot-paced": "a tester paced like a guest: one address, 60 dead cards in 60 s",
  burst: "a burst: 1,000 attempts from one address in one second",
};

/** Runs one scenario against a fresh stack; the figures are read from the sandbox's report. */
export async function runScenario(name: ScenarioName, stack: CrowdStack): Promise<ScenarioFigures> {
  const began = Date.now();
  const figures = async (crowd: Person[], refused: Record<string, number>, charged: number) => ({
    scenario: name,
    goodCards: crowd.filter((person) => !person.card.endsWith("0002")).length,
    charged,
    refused,
    // A proxy of its own buffers its log lines for a moment (proxy/logger.ts).
    defence: (await sleep(LOG_FLUSH_MS + 200), stack.logLines())
      .filter((line) => line.event === "defence_mode_on")
      .map((line) => `${String(line.scope)} ${String(line.signal)} (${String(line.challenge)})`),
    wallS: Math.round((Date.now() - began) / 1000),
  });
  switch (name) {
    case "gala":
    case "giving-day": {
      const crowd =
        name === "gala"
          ? people(60, () => "203.0.113.60", 60)
          : people(240, (i) => `198.51.${100 + Math.floor(i / 250)}.${i % 250}`, 60, 20, 12);
      const refused = await runPeople(stack, crowd);
      const charged = await chargedOnce(stack, crowd);
      return { ...(await figures(crowd, refused, charged)), botDonations: 0, botTokenizations: 0 };
    }
    case "bot-spread":
      // 100 addresses, three cards each, a few at a time.
      await runBot(stack, { cards: 300, address: (n) => `10.66.0.${n % 100}`, workers: 4 });
      return { ...(await figures([], {}, 0)), ...(await botFigures(stack)) };
    case "bot-paced":
      await runBot(stack, { cards: 60, address: () => "203.0.113.66", perSecond: 1 });
      return { ...(await figures([], {}, 0)), ...(await botFigures(stack)) };
    case "burst":
      await runBot(stack, { cards: 1000, address: () => "203.0.113.99", perSecond: 1000 });
      return { ...(await figures([], {}, 0)), ...(await botFigures(stack)) };
  }
}

/**
 * Every scenario side by side, each against a stack of its own (`stack()` makes one); `startsAtS`
 * holds a scenario back that long, so set-ups run side by side on one machine do not send their
 * bursts in the same second (the crowds take 80 s: there is room).
 */
export async function runAllScenarios(
  stack: () => Promise<CrowdStack>,
  startsAtS: Partial<Record<ScenarioName, number>> = {},
): Promise<ScenarioFigures[]> {
  const stacks = await Promise.all(SCENARIO_NAMES.map(() => stack()));
  try {
    return await Promise.all(
      SCENARIO_NAMES.map(async (name, i) => {
        await sleep((startsAtS[name] ?? 0) * 1000);
        return runScenario(name, stacks[i]!);
      }),
    );
  } finally {
    await Promise.all(stacks.map((each) => each.close()));
  }
}

/** One line of figures, as the tests and the bench print them. */
export function describeFigures(label: string, figures: ScenarioFigures): string {
  const refused = Object.entries(figures.refused)
    .map(([code, count]) => `${count} ${code}`)
    .join(", ");
  const defence = figures.defence.length ? `; defence mode: ${figures.defence.join(", ")}` : "";
  return figures.goodCards > 0
    ? `${label} ${figures.scenario}: ${figures.charged} of ${figures.goodCards} good cards charged once${refused ? ` (refused: ${refused})` : ""} in ${figures.wallS} s${defence}`
    : `${label} ${figures.scenario}: ${figures.botDonations} bot donations and ${figures.botTokenizations} card tokenizations reached the upstream in ${figures.wallS} s${defence}`;
}
