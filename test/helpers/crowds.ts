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
import { withCheckDigit, FUTURE_EXPIRY } from "./cards";
import { LOG_FLUSH_MS } from "../../proxy/logger";
import { startProxy, type ProxyHandle } from "./proxy";
import { startSandbox } from "./sandbox";
import { startSandboxProgram } from "./sandbox-process";
import { solvePow, type SolveTally } from "./pow-solver";
import type { Challenge } from "../../contract/api";
import {
  BREAKER_FIRST_RETRY_MS,
  BREAKER_PATIENCE_MS,
  breakerWait,
} from "../../widget/donate/outcome/attempt";
import { readRetryAfter } from "../../widget/shared/retry-after";
import { FORM_SESSION_RETRY_MS } from "../../widget/frame/form-session";

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
  /** The breakers' window, in seconds: a tester's lead before a crowd is that long (600 by default). */
  breakerWindowS: number;
  close(): Promise<void>;
}

/**
 * The defaults the scenarios run with (the test helper's proxies post at machine speed: not these).
 * GIVEKIT_CROWD_LOG_LEVEL=info keeps every request's line (why a person was refused: `filtered`).
 */
const DEFAULTS = {
  GIVEKIT_MIN_FORM_MS: "1500",
  GIVEKIT_TRUST_PROXY: "1",
  LOG_LEVEL: process.env.GIVEKIT_CROWD_LOG_LEVEL ?? "warn",
};

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
  /**
   * The breakers' window shortened (a test's 10 minutes in less), their open period scaled with
   * it (600 s : 30 s); the scenarios' testers lead a crowd by that window.
   */
  breakerWindowS?: number;
  /** The sandbox as a program of its own (many stacks side by side), else in this process. */
  sandboxProgram?: boolean;
}): Promise<CrowdStack> {
  const launch = options.launch ?? inProcess;
  const sandbox = await (options.sandboxProgram ? startSandboxProgram() : startSandbox());
  const breakerWindowS = options.breakerWindowS ?? 600;
  const scaled: Record<string, string> = options.breakerWindowS
    ? {
        GIVEKIT_BREAKER_WINDOW_S: String(breakerWindowS),
        GIVEKIT_BREAKER_OPEN_S: String(Math.max(1, Math.round(breakerWindowS / 20))),
      }
    : {};
  const env = { ...DEFAULTS, ...scaled, ...options.challenge };
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
    breakerWindowS,
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
  /** Circuit breakers opened: `kind why` (a client's address left out). */
  breakers?: string[];
  wallS: number;
  /** People elsewhere during a scenario that has them (the griefer's): their good cards and how many were charged. */
  elsewhere?: { goodCards: number; charged: number };
  /**
   * What open circuit breakers added to the people's time, in seconds: median and 95th percentile
   * of each person's waits as the breakers' Retry-After told them (the widget waits just that).
   */
  waitS?: { median: number; p95: number };
  /**
   * How late this test process's own timers woke those people after their waits (its event loop
   * busy with every crowd's clients and their proofs of work): the harness's, not the breakers'.
   */
  lateS?: { median: number; p95: number };
  /** Requests sent again after their connection closed before any answer (see CLOSED_UNANSWERED). */
  sentAgain?: number;
  /** A tester's live cards confirmed (charged), and the CPU seconds it paid solving challenges per card that reached the upstream. */
  botLiveCharged?: number;
  botCpuSPerCharge?: number;
}

const CAMPAIGN = { shortcode: "71777", keyword: "HOPE" };
const TOKEN_PATH = "/api/v2/donations/create_payment_token";
const EXPIRY = FUTURE_EXPIRY;
/** The proxies' least form time by default (GIVEKIT_MIN_FORM_MS): a bot waits it out. */
const MIN_FORM_MS = 1500;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

interface Answer {
  status: number;
  code?: string;
  json: Record<string, unknown>;
  /** The answer's Retry-After, in seconds, as the widget reads it. */
  retryAfterS?: number;
}

let turn = 0;

/**
 * A request's connection closed under it before any answer came: a kept-alive connection the
 * proxy had closed while this process, busy with every crowd's clients and proofs of work, had not
 * yet read the close. A browser sends such a request again on a new connection by itself, and so
 * does this (a donation with its same Idempotency-Key, so nothing can be charged twice); how often
 * is counted per stack and printed with the figures.
 */
const CLOSED_UNANSWERED = new Set(["UND_ERR_SOCKET", "ECONNRESET", "EPIPE"]);
const SEND_AGAIN_AT_MOST = 2;
const sentAgain = new WeakMap<CrowdStack, number>();

async function post(
  stack: CrowdStack,
  path: string,
  body: unknown,
  ip: string,
  headers = {},
): Promise<Answer> {
  const url = stack.proxyUrls[turn++ % stack.proxyUrls.length]!;
  for (let again = 0; ; again++) {
    try {
      const response = await fetch(url + path, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Forwarded-For": ip, ...headers },
        body: JSON.stringify(body),
      });
      const json = (await response.json().catch(() => ({}))) as Record<string, unknown>;
      return {
        status: response.status,
        code: typeof json.code === "string" ? json.code : undefined,
        json,
        retryAfterS: readRetryAfter(response),
      };
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      if (cause?.code && CLOSED_UNANSWERED.has(cause.code) && again < SEND_AGAIN_AT_MOST) {
        sentAgain.set(stack, (sentAgain.get(stack) ?? 0) + 1);
        continue;
      }
      return { status: 0, code: `network_error:${cause?.code ?? cause?.message ?? String(error)}`, json: {} };
    }
  }
}

/** A Luhn-valid Visa number as a person carries one: of the issuer `bin` (any issuer when not given), any account, never one the sandbox declines or fails. */
export function goodCard(bin = "4"): string {
  for (;;) {
    const digits = withCheckDigit(
      `${bin}${Array.from({ length: 15 - bin.length }, () => randomInt(10)).join("")}`,
    );
    if (!digits.endsWith("0002") && !digits.endsWith("0119")) return digits;
  }
}

/** A person's card that the sandbox declines (it declines every number ending 0002): any issuer. */
function declinedCard(): string {
  return withCheckDigit(`4${Array.from({ length: 10 }, () => randomInt(10)).join("")}`, "0002");
}

/** A card the sandbox declines, as testers' lists are: one BIN, numbers one after another. */
const deadCard = (n: number) => withCheckDigit(`4${String(n).padStart(10, "0")}`, "0002");
/** A dead card from a list that spans many BINs (each card another issuer's), as a botnet's may. */
const deadCardAnyBin = (n: number) =>
  withCheckDigit(
    `4${String(100_000 + ((n * 7919) % 90_000)).slice(0, 5)}${String(n).padStart(5, "0")}`,
    "0002",
  );
/** A popular issuer's BIN (a large bank's): a crowd's cards share it. */
const POPULAR_BIN = "414720";

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
  // The frame names its campaign: the session is bound to it.
  const answer = await post(stack, "/v1/form-sessions", CAMPAIGN, ip);
  return answer.status === 201 ? String(answer.json.form_session) : null;
}

/**
 * Who sends a card: a person (passes every challenge, as the frame does), a bot that solves
 * givekit's proof of work, one that solves it and comes back once for a card held a moment (as a
 * person's widget does), or one that solves nothing.
 */
type Sender = "person" | "solver" | "patient" | "bot";

/** The card step: the frame's request, and the challenges it meets, solved as the sender can. */
async function tokenize(
  stack: CrowdStack,
  number: string,
  formSession: string,
  ip: string,
  who: Sender | boolean,
  tally?: SolveTally,
) {
  const sender: Sender = who === true ? "person" : who === false ? "bot" : who;
  let answer = await post(stack, "/v1/payment-tokens", cardBody(number, formSession), ip);
  if (sender === "bot") return answer;
  for (let round = 0; round < 3 && answer.code === "challenge_required"; round++) {
    const challenge = answer.json.challenge as Challenge | undefined;
    let proof: string;
    if (challenge?.provider === "pow") proof = await solvePow(challenge, tally);
    else if (sender === "person" && stack.passChallenge) proof = stack.passChallenge();
    else return answer;
    answer = await post(
      stack,
      "/v1/payment-tokens",
      cardBody(number, formSession, { challenge_token: proof }),
      ip,
    );
  }
  return answer;
}

/**
 * A gift as the widget makes it: the card tokenized, then the donation; a token the proxy wants
 * made again (card_check_required) is made once more, meeting the challenge, and the gift sent again.
 */
async function give(
  stack: CrowdStack,
  card: { number: string; formSession: string; ip: string; amount: string },
  who: Sender,
  token?: string,
  tally?: SolveTally,
  waited?: Waited,
): Promise<Answer> {
  // A person's widget waits through an open circuit breaker and tries again by itself; a patient
  // tester comes back once, after the first wait, and moves on if held again; a bot moves on.
  const patient = (send: () => Promise<Answer>) =>
    who === "person"
      ? throughBreakers(send, waited ?? { ms: 0, lateMs: 0 })
      : who === "patient"
        ? throughBreakers(send, { ms: 0, lateMs: 0 }, BREAKER_FIRST_RETRY_MS)
        : send();
  for (let round = 0; ; round++) {
    if (!token) {
      const minted = await patient(() => tokenize(stack, card.number, card.formSession, card.ip, who, tally));
      if (minted.status !== 201) return minted;
      if (who === "person") peopleTokens.set(stack, (peopleTokens.get(stack) ?? 0) + 1);
      token = String(minted.json.token);
    }
    const sent = token;
    const key = randomUUID();
    const gift = await patient(() =>
      donate(
        stack,
        sent,
        card.amount,
        card.ip,
        who === "person"
          ? `guest.${card.amount.replace(".", "-")}@example.org`
          : who === "solver" || who === "patient"
            ? inventedEmail()
            : TESTER_EMAIL,
        key,
      ),
    );
    if (round > 0 || gift.code !== "card_check_required" || who === "bot") return gift;
    token = undefined;
  }
}

/** Card tokens the upstream made for people, by stack: the rest of its tokenizations are a tester's. */
const peopleTokens = new WeakMap<CrowdStack, number>();

/** A tester's one identity; each person has their own (told apart by their unique amount). */
const TESTER_EMAIL = "card.tester@example.org";
/** A tester that solves invents a donor per card, as testers' scripts do: the narrow refusals never meet it twice. */
const inventedEmail = () => `donor.${randomBytes(6).toString("hex")}@example.net`;

async function donate(
  stack: CrowdStack,
  token: string,
  amount: string,
  ip: string,
  email = TESTER_EMAIL,
  key: string = randomUUID(),
): Promise<Answer> {
  return post(
    stack,
    "/v1/donations",
    {
      ...CAMPAIGN,
      amount,
      // Each person their own name and e-mail (told apart by their amount); a tester one of each.
      donor:
        email === TESTER_EMAIL
          ? { first_name: "Card", last_name: "Tester", email }
          : email.endsWith("@example.net")
            ? { first_name: "Alex", last_name: `Smith ${email.slice(6, 12)}`, email }
            : { first_name: "Guest", last_name: `Donor ${amount}`, email },
      credit_card_token: token,
    },
    ip,
    { "Idempotency-Key": key },
  );
}

/**
 * Sends again, as the widget does (widget/donate/outcome/attempt.ts), while an open circuit
 * breaker holds the card (429 rate_limited): after the answer's Retry-After (breakerWait: 2 to
 * 15 s), for `patienceMs` (BREAKER_PATIENCE_MS) at most; adds each wait to `waited`, and how
 * late this process's timer woke it apart. The same request each time (the same Idempotency-Key
 * for a donation): nothing can be charged twice.
 */
async function throughBreakers(
  send: () => Promise<Answer>,
  waited: Waited,
  patienceMs = BREAKER_PATIENCE_MS,
): Promise<Answer> {
  for (let waitedMs = 0; ;) {
    const answer = await send();
    const wait = breakerWait(waitedMs, answer.retryAfterS);
    if (answer.code !== "rate_limited" || wait === null || waitedMs + wait > patienceMs) return answer;
    waitedMs += wait;
    // Added to what the card's tokenization waited before its donation did.
    const slept = Date.now();
    await sleep(wait);
    waited.ms += wait;
    waited.lateMs += Math.max(0, Date.now() - slept - wait);
  }
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

/** A person's waits at open circuit breakers, in ms: as told, and how late the test's timers ended them. */
interface Waited {
  ms: number;
  lateMs: number;
}
/** Every person's waits at open circuit breakers, by the scenario that ran them. */
const waitsOf = new WeakMap<Person[], Waited[]>();

async function runPeople(stack: CrowdStack, crowd: Person[]): Promise<Record<string, number>> {
  const refused: Record<string, number> = {};
  const waits: Waited[] = [];
  waitsOf.set(crowd, waits);
  const began = Date.now();
  await Promise.all(
    crowd.map(async (person) => {
      await sleep(began + person.opensAtMs - Date.now());
      const opened = Date.now();
      let formSession = await session(stack, person.ip);
      // The frame asks again every 3 s while the person fills the form in (a tester sharing the
      // address may spend its turns for forms), as widget/frame/form-session.ts does.
      while (!formSession && Date.now() - opened + FORM_SESSION_RETRY_MS < person.formMs) {
        await sleep(FORM_SESSION_RETRY_MS);
        formSession = await session(stack, person.ip);
      }
      const minted = Date.now();
      await sleep(Math.max(opened + person.formMs, minted + MIN_FORM_MS + 200) - Date.now());
      const why = await (async () => {
        if (!formSession) return "no_form_session";
        const waited = { ms: 0, lateMs: 0 };
        const gift = await give(
          stack,
          { number: person.card, formSession, ip: person.ip, amount: person.amount },
          "person",
          undefined,
          undefined,
          waited,
        );
        waits.push(waited);
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

export type ScenarioName =
  | "gala"
  | "giving-day"
  | "bot-spread"
  | "bot-paced"
  | "burst"
  | "stockpile"
  | "distributed"
  | "griefer-gala"
  | "tester-gala"
  | "stockpile-solving"
  | "distributed-solving"
  | "spread-solving"
  | "paced-solving"
  | "gala-beside-solver"
  | "giving-day-beside-solver"
  | "giving-day-after-solver"
  | "giving-day-after-botnet"
  | "gala-after-solver"
  | "giving-day-after-repeater"
  | "gala-after-repeater"
  | "giving-day-after-patient"
  | "gala-after-patient"
  | "popular-bin";
/** The scenarios that hold with or without Turnstile. */
export const SCENARIO_NAMES: ScenarioName[] = ["gala", "giving-day", "bot-spread", "bot-paced", "burst"];
/** The testers and griefers against the defaults (givekit's own challenge). */
export const DEFENCE_SCENARIO_NAMES: ScenarioName[] = [
  "stockpile",
  "distributed",
  "griefer-gala",
  "tester-gala",
];
/** The same testers, paying every challenge as the frame does: what a determined one gets, and at what cost. */
export const SOLVING_SCENARIO_NAMES: ScenarioName[] = ["stockpile-solving", "distributed-solving"];

/** Testers that solve every challenge and invent a donor per card, against the circuit breakers (issue 42's bounds). */
export const BREAKER_SCENARIO_NAMES: ScenarioName[] = [
  "spread-solving",
  "paced-solving",
  "distributed-solving",
  "stockpile-solving",
];

/** Testers that solve every challenge beside a crowd giving at the same time (issue 42): the crowd gives, the tester is held. */
export const BESIDE_SCENARIO_NAMES: ScenarioName[] = ["gala-beside-solver", "giving-day-beside-solver"];

/**
 * Testers at work for the breakers' whole window before a crowd begins, and on through it
 * (issue 51): the crowd gives as if the tester were not there, the tester is held; and a crowd
 * whose cards share one popular BIN, with no tester, is not held at all.
 */
export const AFTER_SCENARIO_NAMES: ScenarioName[] = [
  "giving-day-after-solver",
  "giving-day-after-botnet",
  "gala-after-solver",
  "popular-bin",
];

/**
 * Testers whose list is one dead number sent again and again, 20 % live cards of random BINs
 * confirmed with $5 gifts, at work for the breakers' window before a crowd and through it.
 */
export const REPEATER_SCENARIO_NAMES: ScenarioName[] = ["giving-day-after-repeater", "gala-after-repeater"];

/**
 * Testers that come back once for every card held a moment at an open breaker, as a person's
 * widget does, at work for the breakers' window before a crowd and through it.
 */
export const PATIENT_SCENARIO_NAMES: ScenarioName[] = ["giving-day-after-patient", "gala-after-patient"];

/** What each scenario is, in the words proxy/GUIDE.md uses. */
export const SCENARIOS: Record<ScenarioName, string> = {
  gala: "a gala: 60 guests behind one address give within 60 s, each with their own card, 20-90 s in the form",
  "giving-day": "a giving-day peak: 240 donors from 240 addresses within 60 s, 5 % of cards declined",
  "bot-spread": "a tester over 100 addresses: 300 dead cards (one BIN, ending 0002)",
  "bot-paced": "a tester paced like a guest: one address, 60 dead cards in 60 s",
  burst: "a burst: 1,000 attempts from one address in one second",
  stockpile:
    "a stockpile over 300 addresses: a frame per card, 300 cards tokenized first (90 % dead), then a donation with each token",
  distributed:
    "a distributed tester: 1,000 attempts over 100 rotating addresses, 20 % live cards, 10 at a time",
  "griefer-gala":
    "a griefer before the paddle raise: 11 dead cards, 5 from the venue's address; then 60 guests there and 20 donors elsewhere",
  "tester-gala": "a tester beside a gala: 40 dead cards from the venue's address while its 60 guests give",
  "stockpile-solving": "the stockpile, its bot solving every challenge (3 minutes at most)",
  "distributed-solving": "the distributed tester, solving every challenge (3 minutes at most)",
  "spread-solving":
    "a tester over 100 addresses that solves every challenge: 300 cards (90 % dead), a new donor each, 4 at a time",
  "paced-solving": "a tester that solves, from one address: 60 dead cards in 2 minutes, a new donor each",
  "gala-beside-solver":
    "a tester that solves, on the venue's address beside a gala: 40 dead cards in 60 s, a new donor each, while its 60 guests give",
  "giving-day-beside-solver":
    "a tester that solves, over 100 addresses beside a giving day: 300 cards (90 % dead), a new donor each, 4 at a time, while 228 donors over 240 addresses give in 60 s",
  "giving-day-after-solver":
    "a tester that solves, over 100 addresses (90 % dead, one BIN, a new donor per card, 2 a second), at work for the breakers' window before a giving day (228 donors) and through it",
  "giving-day-after-botnet":
    "a botnet that solves, 300 addresses with one card each (90 % dead, random BINs), at work for the breakers' window before a giving day (228 donors) and through it",
  "gala-after-solver":
    "a tester that solves, on the venue's address (a dead card each 1.5 s), at work for the breakers' window before the paddle raise (60 guests in 60 s) and through it",
  "popular-bin": "30 donors whose cards share one large bank's BIN, 2 of them declined, no tester",
  "giving-day-after-repeater":
    "a tester that solves, over 100 addresses: one dead number again and again, 20 % live cards of random BINs confirmed with $5 gifts, 4 a second, for the breakers' window before a giving day (228 donors) and through it",
  "gala-after-repeater":
    "the same repeating tester on the venue's address, for the breakers' window before the paddle raise (60 guests in 60 s) and through it",
  "giving-day-after-patient":
    "the tester over 100 addresses that solves (90 % dead, a new donor per card, 2 a second), coming back once for each card held a moment, before a giving day and through it",
  "gala-after-patient":
    "the tester on the venue's address (a dead card each 1.5 s), coming back once for each card held a moment, before the paddle raise and through it",
};

/**
 * A tester's card: live (the sandbox charges it) one in `liveEvery` (0: none), else dead: one BIN,
 * each another issuer's (`manyBins`), or one number every time (`oneDead`).
 */
const testerCard = (n: number, liveEvery: number, dead: { manyBins?: boolean; oneDead?: boolean } = {}) =>
  liveEvery > 0 && n % liveEvery === 0
    ? goodCard()
    : dead.oneDead
      ? deadCard(1)
      : dead.manyBins
        ? deadCardAnyBin(n)
        : deadCard(n);
/** Amounts a tester's live cards are charged: told apart from people's in the report. */
const TESTER_AMOUNT = "5.00";

/** A tester that opens a frame per card from each card's address, waits out the form time, then tries them, `workers` at a time, for at most `forMs`. */
async function runTester(
  stack: CrowdStack,
  options: {
    cards: number;
    liveEvery: number;
    address: (n: number) => string;
    workers: number;
    who: Sender;
    /** Tokenize every card first, then donate with the tokens kept. */
    stockpile: boolean;
    forMs: number;
    tally: SolveTally;
    /** Card n is sent no sooner than n times this after the start (a paced tester). */
    everyMs?: number;
    /** Its dead cards each from another BIN. */
    manyBins?: boolean;
    /** Its dead cards one number, sent again and again. */
    oneDead?: boolean;
  },
): Promise<void> {
  const until = Date.now() + options.forMs;
  const cards = Array.from({ length: options.cards }, (_, n) => ({
    n,
    number: testerCard(n, options.liveEvery, options),
    ip: options.address(n),
  }));
  // A paced tester opens each card's form shortly before its turn (a page per card, its least form
  // time waited out), as a script at work for minutes does: opening them all first, one address
  // gets a burst of forms (GIVEKIT_RATE_FORM_SESSIONS) and its tester falls silent after it.
  const paced = options.everyMs !== undefined && !options.stockpile;
  const opened = cards.map((card) =>
    paced
      ? sleep(card.n * options.everyMs!).then(() => (Date.now() < until ? session(stack, card.ip) : null))
      : session(stack, card.ip),
  );
  const sessions = paced ? opened : await Promise.all(opened);
  await sleep(MIN_FORM_MS + 200);
  const pool = async <T>(items: T[], work: (item: T) => Promise<void>) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: options.workers }, async () => {
        while (next < items.length && Date.now() < until) await work(items[next++]!);
      }),
    );
  };
  const card = (n: number, formSession: string) => ({
    number: cards[n]!.number,
    formSession,
    ip: cards[n]!.ip,
    amount: TESTER_AMOUNT,
  });
  if (!options.stockpile) {
    const began = Date.now();
    await pool(cards, async ({ n }) => {
      if (options.everyMs) await sleep(began + n * options.everyMs - Date.now());
      const formSession = await sessions[n];
      if (formSession) await give(stack, card(n, formSession), options.who, undefined, options.tally);
    });
    return;
  }
  const tokens: { n: number; token: string }[] = [];
  await pool(cards, async ({ n }) => {
    const formSession = await sessions[n];
    if (!formSession) return;
    const minted = await tokenize(
      stack,
      cards[n]!.number,
      formSession,
      cards[n]!.ip,
      options.who,
      options.tally,
    );
    if (minted.status === 201) tokens.push({ n, token: String(minted.json.token) });
  });
  await pool(tokens, async ({ n, token }) => {
    await give(stack, card(n, (await sessions[n])!), options.who, token, options.tally);
  });
}

/** What of a tester beside a crowd reached the upstream: its declined and live charges, the tokenizations not made for people. */
async function testerFigures(stack: CrowdStack, tally: SolveTally) {
  const mine = (await stack.transactions()).filter((row) => row.amount === TESTER_AMOUNT);
  const declined = mine.filter((row) => row.status === "declined").length;
  const live = mine.filter((row) => row.status === "collected").length;
  const tokenizations = (await stack.requestPaths()).filter((path) => path === TOKEN_PATH).length;
  const reached = declined + live;
  return {
    botDonations: declined,
    botLiveCharged: live,
    botTokenizations: tokenizations - (peopleTokens.get(stack) ?? 0),
    botCpuSPerCharge: reached > 0 ? Math.round((tally.cpuS / reached) * 1000) / 1000 : 0,
  };
}

/** The median and 95th percentile of waits in ms, in seconds to a tenth. */
function percentiles(waits: number[]): { median: number; p95: number } {
  const sorted = waits.toSorted((a, b) => a - b);
  const at = (share: number) => sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0;
  return { median: Math.round(at(0.5) / 100) / 10, p95: Math.round(at(0.95) / 100) / 10 };
}

/** Runs one scenario against a fresh stack; the figures are read from the sandbox's report. */
export async function runScenario(name: ScenarioName, stack: CrowdStack): Promise<ScenarioFigures> {
  const began = Date.now();
  const figures = async (crowd: Person[], refused: Record<string, number>, charged: number) => ({
    ...(waitsOf.has(crowd)
      ? {
          waitS: percentiles(waitsOf.get(crowd)!.map((waited) => waited.ms)),
          lateS: percentiles(waitsOf.get(crowd)!.map((waited) => waited.lateMs)),
        }
      : {}),
    scenario: name,
    goodCards: crowd.filter((person) => !person.card.endsWith("0002")).length,
    charged,
    refused,
    // A proxy of its own buffers its log lines for a moment (proxy/logger.ts).
    defence: (await sleep(LOG_FLUSH_MS + 200), stack.logLines())
      .filter((line) => line.event === "defence_mode_on")
      .map((line) => `${String(line.scope)} ${String(line.signal)} (${String(line.challenge)})`),
    breakers: stack
      .logLines()
      .filter((line) => line.event === "breaker_open")
      .map((line) => `${String(line.scope).replace(/^client:.*/, "client")} ${String(line.why)}`),
    wallS: Math.round((Date.now() - began) / 1000),
    sentAgain: sentAgain.get(stack) ?? 0,
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
    case "stockpile":
    case "stockpile-solving":
    case "distributed":
    case "distributed-solving":
    case "spread-solving":
    case "paced-solving": {
      const tally: SolveTally = { cpuS: 0, count: 0 };
      const stockpile = name.startsWith("stockpile");
      const shape =
        name === "spread-solving"
          ? { cards: 300, liveEvery: 10, address: (n: number) => `10.66.0.${n % 100}`, workers: 4 }
          : name === "paced-solving"
            ? { cards: 60, liveEvery: 0, address: () => "203.0.113.67", workers: 1, everyMs: 2000 }
            : stockpile
              ? {
                  cards: 300,
                  liveEvery: 10,
                  address: (n: number) => `10.77.${Math.floor(n / 250)}.${n % 250}`,
                  workers: 10,
                }
              : { cards: 1000, liveEvery: 5, address: (n: number) => `10.88.0.${n % 100}`, workers: 10 };
      await runTester(stack, {
        ...shape,
        who: name.endsWith("-solving") ? "solver" : "bot",
        stockpile,
        forMs: 180_000,
        tally,
      });
      const bot = await botFigures(stack);
      const live = (await stack.transactions()).filter(
        (row) => row.status === "collected" && row.amount === TESTER_AMOUNT,
      ).length;
      const reached = bot.botDonations + live;
      return {
        ...(await figures([], {}, 0)),
        ...bot,
        botLiveCharged: live,
        botCpuSPerCharge: reached > 0 ? Math.round((tally.cpuS / reached) * 1000) / 1000 : 0,
      };
    }
    case "gala-beside-solver":
    case "giving-day-beside-solver": {
      const tally: SolveTally = { cpuS: 0, count: 0 };
      const gala = name === "gala-beside-solver";
      const venue = "203.0.113.81";
      const crowd = gala
        ? people(60, () => venue, 60)
        : people(240, (i) => `198.51.${100 + Math.floor(i / 250)}.${i % 250}`, 60, 20, 12);
      const tester = gala
        ? { cards: 40, liveEvery: 0, address: () => venue, workers: 1, everyMs: 1500 }
        : { cards: 300, liveEvery: 10, address: (n: number) => `10.66.0.${n % 100}`, workers: 4 };
      const [refused] = await Promise.all([
        runPeople(stack, crowd),
        // The tester starts as the crowd starts giving (its first arrivals come 20 s in).
        sleep(20_000).then(() =>
          runTester(stack, { ...tester, who: "solver", stockpile: false, forMs: 120_000, tally }),
        ),
      ]);
      const rows = await stack.transactions();
      const mine = rows.filter((row) => row.amount === TESTER_AMOUNT);
      const declined = mine.filter((row) => row.status === "declined").length;
      const live = mine.filter((row) => row.status === "collected").length;
      const tokenizations = (await stack.requestPaths()).filter((path) => path === TOKEN_PATH).length;
      const reached = declined + live;
      return {
        ...(await figures(crowd, refused, await chargedOnce(stack, crowd))),
        // The tester's alone: its declined and live charges, and the tokenizations not made for people.
        botDonations: declined,
        botLiveCharged: live,
        botTokenizations: tokenizations - (peopleTokens.get(stack) ?? 0),
        botCpuSPerCharge: reached > 0 ? Math.round((tally.cpuS / reached) * 1000) / 1000 : 0,
      };
    }
    case "giving-day-after-solver":
    case "giving-day-after-botnet":
    case "gala-after-solver":
    case "giving-day-after-repeater":
    case "gala-after-repeater":
    case "giving-day-after-patient":
    case "gala-after-patient": {
      const tally: SolveTally = { cpuS: 0, count: 0 };
      const gala = name.startsWith("gala");
      const venue = "203.0.113.82";
      const leadMs = stack.breakerWindowS * 1000;
      // The tester works through the lead and the crowd's 60 s of arrivals, and on 40 s more.
      const forMs = leadMs + 100_000;
      const repeater = {
        cards: Math.ceil(forMs / 250),
        liveEvery: 5,
        workers: 4,
        everyMs: 250,
        oneDead: true,
      };
      const tester = name.endsWith("repeater")
        ? { ...repeater, address: gala ? () => venue : (n: number) => `10.66.0.${n % 100}` }
        : gala
          ? { cards: Math.ceil(forMs / 1500), liveEvery: 0, address: () => venue, workers: 1, everyMs: 1500 }
          : name === "giving-day-after-solver" || name === "giving-day-after-patient"
            ? {
                cards: Math.ceil(forMs / 500),
                liveEvery: 10,
                address: (n: number) => `10.66.0.${n % 100}`,
                workers: 4,
                everyMs: 500,
              }
            : {
                cards: 300,
                liveEvery: 10,
                address: (n: number) => `10.55.${Math.floor(n / 250)}.${n % 250}`,
                workers: 4,
                everyMs: forMs / 300,
                manyBins: true,
              };
      const crowd = gala
        ? people(60, () => venue, 60)
        : people(240, (i) => `198.51.${100 + Math.floor(i / 250)}.${i % 250}`, 60, 20, 12);
      const [refused] = await Promise.all([
        // The crowd's first arrivals come 20 s after it opens its forms: as the lead ends.
        sleep(leadMs - 20_000).then(() => runPeople(stack, crowd)),
        runTester(stack, {
          ...tester,
          who: name.endsWith("patient") ? "patient" : "solver",
          stockpile: false,
          forMs,
          tally,
        }),
      ]);
      return {
        ...(await figures(crowd, refused, await chargedOnce(stack, crowd))),
        ...(await testerFigures(stack, tally)),
      };
    }
    case "popular-bin": {
      const crowd = people(30, (i) => `198.51.130.${i}`, 60, 20, 2);
      for (const [i, person] of crowd.entries()) {
        person.card =
          i < 2
            ? withCheckDigit(`${POPULAR_BIN}${String(randomInt(100_000)).padStart(5, "0")}`, "0002")
            : goodCard(POPULAR_BIN);
      }
      const refused = await runPeople(stack, crowd);
      return {
        ...(await figures(crowd, refused, await chargedOnce(stack, crowd))),
        botDonations: 0,
        botTokenizations: 0,
      };
    }
    case "griefer-gala": {
      const venue = "203.0.113.70";
      // The griefer: five dead cards from the venue's Wi-Fi, six from elsewhere, just before.
      await runBot(stack, { cards: 11, address: (n) => (n < 5 ? venue : `10.99.0.${n}`), workers: 11 });
      const guests = people(60, () => venue, 60);
      const others = people(20, (i) => `198.51.120.${i}`, 20);
      for (const [i, other] of others.entries()) other.amount = `${90 + i}.${String(i).padStart(2, "0")}`;
      const [refused, refusedElsewhere] = await Promise.all([
        runPeople(stack, guests),
        runPeople(stack, others),
      ]);
      for (const [code, n] of Object.entries(refusedElsewhere)) refused[code] = (refused[code] ?? 0) + n;
      return {
        ...(await figures(guests, refused, await chargedOnce(stack, guests))),
        ...(await botFigures(stack)),
        elsewhere: { goodCards: others.length, charged: await chargedOnce(stack, others) },
      };
    }
    case "tester-gala": {
      const venue = "203.0.113.80";
      const guests = people(60, () => venue, 60);
      const [refused] = await Promise.all([
        runPeople(stack, guests),
        runBot(stack, { cards: 40, address: () => venue, perSecond: 40 / 60 }),
      ]);
      return {
        ...(await figures(guests, refused, await chargedOnce(stack, guests))),
        ...(await botFigures(stack)),
      };
    }
  }
}

/**
 * Every scenario side by side, each against a stack of its own (`stack()` makes one), each
 * starting as soon as its stack is up; `startsAtS` holds a scenario back that long, so set-ups run
 * side by side on one machine do not send their bursts in the same second (the crowds take 80 s:
 * there is room). `startingAtOnce`: how many stacks start at once (each proxy a program, and a
 * loaded machine takes its time to start many).
 */
export async function runAllScenarios(
  stack: () => Promise<CrowdStack>,
  startsAtS: Partial<Record<ScenarioName, number>> = {},
  names: ScenarioName[] = SCENARIO_NAMES,
  startingAtOnce = names.length,
): Promise<ScenarioFigures[]> {
  const stacks: Promise<CrowdStack>[] = [];
  let starting = Promise.resolve();
  const lanes = Array.from({ length: startingAtOnce }, () => starting);
  names.forEach((_, i) => {
    const lane = i % startingAtOnce;
    const made = lanes[lane]!.then(stack);
    lanes[lane] = made.then(
      () => undefined,
      () => undefined,
    );
    stacks.push(made);
  });
  starting = Promise.all(lanes).then(() => undefined);
  try {
    return await Promise.all(
      names.map(async (name, i) => {
        const made = await stacks[i]!;
        await sleep((startsAtS[name] ?? 0) * 1000);
        return runScenario(name, made);
      }),
    );
  } finally {
    await starting;
    const made = await Promise.allSettled(stacks);
    await Promise.all(made.map((each) => (each.status === "fulfilled" ? each.value.close() : undefined)));
  }
}

/** What each scenario is held to (issue 42's bounds, and the crowds' own). */
const BOUNDS: Partial<Record<ScenarioName, string>> = {
  gala: "60 of 60",
  "giving-day": "228 of 228",
  "bot-spread": "30",
  "bot-paced": "10",
  burst: "10",
  stockpile: "30 charges",
  distributed: "50 tokenizations",
  "griefer-gala": "58 of 60, 20 of 20 elsewhere",
  "tester-gala": "60 of 60, tester 10",
  "spread-solving": "30 declined, 30 tokenizations",
  "paced-solving": "10",
  "distributed-solving": "50 tokenizations, 50 charges",
  "stockpile-solving": "30",
  "gala-beside-solver": "58 of 60, tester 15",
  "giving-day-beside-solver": "220 of 228, tester 50",
  "giving-day-after-solver": "220 of 228, wait median 5 s, p95 30 s, tester 50",
  "giving-day-after-botnet": "220 of 228, wait median 5 s, p95 30 s, tester 50",
  "gala-after-solver": "58 of 60, wait p95 30 s, tester 15",
  "giving-day-after-repeater": "220 of 228, wait median 5 s, p95 30 s, tester 50",
  "gala-after-repeater": "58 of 60, wait p95 30 s, tester 10",
  "giving-day-after-patient": "220 of 228, wait median 5 s, p95 30 s, tester 50",
  "gala-after-patient": "58 of 60, wait p95 30 s, tester 15",
  "popular-bin": "28 of 28, nobody waits",
};

/** What each tester-first scenario is held to with the human check configured (issue 51). */
const HUMAN_CHECK_BOUNDS: Partial<Record<ScenarioName, string>> = {
  "giving-day-after-solver": "220 of 228, wait p95 10 s, tester 10",
  "giving-day-after-botnet": "220 of 228, wait p95 10 s, tester 10",
  "gala-after-solver": "58 of 60, wait p95 10 s, tester 10",
  "giving-day-after-repeater": "220 of 228, wait p95 10 s, tester 10",
  "gala-after-repeater": "58 of 60, wait p95 10 s, tester 10",
};

/**
 * One cell of the figures' table: the people charged and what open breakers added to their time
 * (median, p95), what of the tester reached the upstream, and its CPU seconds solving per card
 * that did.
 */
const figuresCell = (figures: ScenarioFigures) => {
  const crowd =
    figures.goodCards > 0
      ? `${figures.charged} of ${figures.goodCards} charged${figures.elsewhere ? ` (${figures.elsewhere.charged} of ${figures.elsewhere.goodCards} elsewhere)` : ""}, waited ${figures.waitS ? `${figures.waitS.median} s / ${figures.waitS.p95} s` : "-"}; `
      : "";
  const tester =
    figures.botLiveCharged !== undefined
      ? `tester ${figures.botDonations} declined + ${figures.botLiveCharged} live, ${figures.botTokenizations} tokenizations, ${figures.botCpuSPerCharge} CPU s each`
      : figures.goodCards > 0
        ? `tester ${figures.botDonations} declined`
        : `${figures.botDonations} declined, ${figures.botTokenizations} tokenizations`;
  return crowd + tester;
};

/**
 * The figures' table as proxy/GUIDE.md ("Circuit breakers") shows it, each scenario on both
 * stores: the people's added wait (median / p95) and the tester's CPU seconds per card that
 * reached the upstream. The bench prints it; the tests print each row's line (describeFigures).
 */
export function figuresTable(sqlite: ScenarioFigures[], postgres: ScenarioFigures[]): string {
  const rows = sqlite.map((figures, i) => {
    // "<scenario> + Turnstile": the same scenario with the human check configured.
    const [name, check] = figures.scenario.split(" + ") as [ScenarioName, string | undefined];
    const bound = check ? HUMAN_CHECK_BOUNDS[name] : BOUNDS[name];
    return `| ${SCENARIOS[name]}${check ? `, ${check} configured` : ""} | ${figuresCell(figures)} | ${postgres[i] ? figuresCell(postgres[i]) : "-"} | ${bound ?? "printed"} |`;
  });
  return [
    "| scenario | one proxy, SQLite | two proxies, PostgreSQL | bound |",
    "| --- | --- | --- | --- |",
    ...rows,
  ].join("\n");
}

/** One line of figures, as the tests and the bench print them. */
export function describeFigures(label: string, figures: ScenarioFigures): string {
  const refused = Object.entries(figures.refused)
    .map(([code, count]) => `${count} ${code}`)
    .join(", ");
  const defence = figures.defence.length ? `; defence mode: ${figures.defence.join(", ")}` : "";
  const opened = figures.breakers?.length ? `; breakers opened: ${figures.breakers.join(", ")}` : "";
  const elsewhere = figures.elsewhere
    ? `; elsewhere ${figures.elsewhere.charged} of ${figures.elsewhere.goodCards} charged once`
    : "";
  const tester =
    figures.botLiveCharged !== undefined
      ? `${figures.goodCards > 0 ? `; the tester's ${figures.botDonations} declined charges and ${figures.botTokenizations} tokenizations reached the upstream` : ""}; ${figures.botLiveCharged} live cards confirmed; ${figures.botCpuSPerCharge} CPU s solving per charge that reached the upstream`
      : figures.goodCards > 0 && figures.botDonations > 0
        ? `; ${figures.botDonations} tester charges and ${figures.botTokenizations} tokenizations reached the upstream`
        : "";
  const late = figures.lateS
    ? ` (the test's timers late: median ${figures.lateS.median} s, p95 ${figures.lateS.p95} s)`
    : "";
  const waited = figures.waitS
    ? `; waited at breakers: median ${figures.waitS.median} s, p95 ${figures.waitS.p95} s${late}`
    : "";
  const resent = figures.sentAgain
    ? `; ${figures.sentAgain} requests sent again after their connection closed unanswered`
    : "";
  return figures.goodCards > 0
    ? `${label} ${figures.scenario}: ${figures.charged} of ${figures.goodCards} good cards charged once${refused ? ` (refused: ${refused})` : ""}${elsewhere}${tester}${waited}${resent} in ${figures.wallS} s${defence}${opened}`
    : `${label} ${figures.scenario}: ${figures.botDonations} bot donations and ${figures.botTokenizations} card tokenizations reached the upstream${tester}${resent} in ${figures.wallS} s${defence}${opened}`;
}
