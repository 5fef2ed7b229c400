/**
 * Renders <givekit-donate>'s component against a stubbed proxy (fetch) and a stand-in for the
 * card frame, which in a real browser is the proxy's /frame/card page in an iframe. The stand-in
 * speaks the frame's side of contract/frame.ts: it says when the card is complete and answers a
 * tokenize request with a token (or an error), exactly as the real frame does.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/preact";
import { afterEach, beforeEach, expect, vi } from "vitest";
import type { Campaign, Peer } from "../../contract/api";
import type { FromFrameMessage, ToFrameMessage } from "../../contract/frame";
import { readDonateAttributes } from "../../widget/donate/base/attributes";
import { DonateWidget } from "../../widget/donate/DonateWidget";
import { extrasFor, loadLater } from "../../widget/donate/load-later";
import type { createGiftModel } from "../../widget/donate/gift/gift";

export const PROXY = "https://give.example.org";

/**
 * A donate element's language switch offering English, French and Korean (`locales="en,fr,ko"`),
 * French chosen: the form speaks French and the element's `locale` says so.
 */
export async function expectSwitchToFrench(element: HTMLElement, shadow: ReturnType<typeof within>) {
  const language = await shadow.findByRole("combobox", { name: "Language" });
  expect([...(language as HTMLSelectElement).options].map((option) => option.textContent)).toEqual([
    "English",
    "Français",
    "한국어",
  ]);
  fireEvent.change(language, { target: { value: "fr" } });
  expect(await shadow.findByRole("button", { name: "Suivant" })).toBeTruthy();
  expect(element.getAttribute("locale")).toBe("fr");
}

export const HOPE: Campaign = {
  shortcode: "71777",
  keyword: "HOPE",
  event_id: "2026-hope-walk",
  event_type: "peer_campaign",
  fee_rate: "0.03",
  min_amount: "5.00",
  max_amount: "10000.00",
  currency: "USD",
  recurring_frequencies: ["monthly"],
  peer_fundraising: true,
  opt_in_lists: ["Hope Alerts"],
};

/** What every event of a form giving to HOPE carries besides its own facts (widget/donate/base/analytics.ts). */
/** A gift model's props as a plain form gives them: three amounts, three frequencies, the fee optional. */
export type GiftProps = Parameters<typeof createGiftModel>[0];
export const GIFT_PROPS: GiftProps = {
  amounts: [2500, 5000, 10000],
  amountLabels: {},
  monthlyAmounts: null,
  defaultAmount: null,
  defaultFrequency: "once",
  frequencies: ["once", "monthly", "annually"],
  coverFee: "optional",
};

export const HOPE_CONTEXT = { currency: "USD", shortcode: "71777", keyword: "HOPE" } as const;

export const PEERS: Peer[] = [
  {
    id: "101",
    name: "Ana Ruiz",
    kind: "fundraiser",
    team_id: "11",
    team_name: "Team Sunrise",
    raised: "1230.00",
    goal: null,
  },
  {
    id: "103",
    name: "Chloe Park",
    kind: "fundraiser",
    team_id: null,
    team_name: null,
    raised: null,
    goal: null,
  },
  {
    id: "104",
    name: "Dev Patel",
    kind: "fundraiser",
    team_id: "12",
    team_name: "Night Owls",
    raised: "0.00",
    goal: null,
  },
  {
    id: "12",
    name: "Night Owls",
    kind: "team",
    team_id: null,
    team_name: null,
    raised: "410.50",
    goal: "2000.00",
  },
  { id: "11", name: "Team Sunrise", kind: "team", team_id: null, team_name: null, raised: null, goal: null },
];

export interface Call {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  /** Date.now() when it was made (the fake clock's, under fake timers). */
  at: number;
}

type Answer = { status: number; body: unknown } | "network-error";

export const success = (amount = "25.00", fee = "0.00", transactionId = "T-1001"): Answer => ({
  status: 200,
  body: {
    donation: {
      status: "Success",
      message: "Thank you",
      transaction_id: transactionId,
      amount,
      fee_amount: fee,
      recurring_frequency: null,
    },
  },
});

export const problem = (status: number, code: string, errors?: Record<string, string[]>): Answer => ({
  status,
  body: { type: "about:blank", title: code, status, code, ...(errors ? { errors } : {}) },
});

/** A donation's status as GET /v1/donations/{reference} answers it. */
export const donationStatus = (
  status: "Pending" | "Success" | "NotCharged",
  reference: string,
  transactionId?: string,
): Answer => ({
  status: 200,
  body: { donation: { status, reference, ...(transactionId ? { transaction_id: transactionId } : {}) } },
});

/**
 * A fake proxy: answers the campaign and peers from HOPE and PEERS, each POST /v1/donations
 * with the next of `donations` and each GET /v1/donations/{reference} with the next of
 * `statuses` (the last one repeats; 404 without any). Every call is kept.
 * The peers route answers each of `peers` first, if given.
 */
export function stubProxy(
  options: {
    campaign?: Answer;
    donations?: (Answer | Promise<Answer>)[];
    statuses?: Answer[];
    /** The peers route's next answers, in order (then it answers from PEERS). */
    peers?: Answer[];
  } = {},
) {
  const calls: Call[] = [];
  const donations = options.donations ?? [success()];
  const statuses = options.statuses ?? [];
  let donationCount = 0;
  let statusCount = 0;
  const fetchStub = vi.fn<typeof fetch>(async (input, init = {}) => {
    const url = new URL(String(input));
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries((init.headers ?? {}) as Record<string, string>)) {
      headers[name.toLowerCase()] = value;
    }
    const body = typeof init.body === "string" ? JSON.parse(init.body) : undefined;
    calls.push({ method: init.method ?? "GET", url: url.href, headers, body, at: Date.now() });
    let answer: Answer;
    if (url.pathname.endsWith("/peers")) {
      // As the proxy answers: one peer by id, or the matches of a search.
      const { q, fundraiser, team } = Object.fromEntries(url.searchParams);
      const wanted = (q ?? "").toLowerCase();
      answer = options.peers?.shift() ?? {
        status: 200,
        body: {
          peers: PEERS.filter((peer) =>
            fundraiser || team
              ? peer.id === (fundraiser ?? team) && peer.kind === (fundraiser ? "fundraiser" : "team")
              : peer.name.toLowerCase().includes(wanted),
          ),
        },
      };
    } else if (url.pathname.startsWith("/v1/campaigns/")) {
      answer = options.campaign ?? { status: 200, body: HOPE };
    } else if (url.pathname === "/v1/donations") {
      answer = await donations[Math.min(donationCount, donations.length - 1)]!;
      donationCount += 1;
    } else if (url.pathname.startsWith("/v1/donations/") && statuses.length > 0) {
      answer = statuses[Math.min(statusCount, statuses.length - 1)]!;
      statusCount += 1;
    } else {
      answer = problem(404, "not_found");
    }
    if (answer === "network-error") throw new TypeError("Failed to fetch");
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { "Content-Type": "application/json" },
    });
  });
  vi.stubGlobal("fetch", fetchStub);
  return {
    calls,
    donationCalls: () => calls.filter((call) => call.url.endsWith("/v1/donations")),
    statusCalls: () => calls.filter((call) => new URL(call.url).pathname.startsWith("/v1/donations/")),
  };
}

export type TokenReply = FromFrameMessage | ((id: string) => FromFrameMessage);

const firstToken = (id: string): FromFrameMessage => ({
  type: "givekit:token",
  id,
  token: "tok_test_1",
  brand: "visa",
  last4: "4242",
});

/**
 * Stands in for the card frame: every iframe gets a fake window whose postMessage records what
 * the widget sends and answers a tokenize request with `tokenReply` (a token by default).
 */
export function installFakeCardFrame() {
  const posted: { message: ToFrameMessage; targetOrigin: string }[] = [];
  let reply: TokenReply = firstToken;
  const frameWindow = {
    postMessage(message: ToFrameMessage, targetOrigin: string) {
      posted.push({ message, targetOrigin });
      if (message.type === "givekit:tokenize") {
        const answer = typeof reply === "function" ? reply(message.id) : reply;
        setTimeout(() => send(answer), 0);
      }
    },
  };
  function send(data: unknown, origin = new URL(PROXY).origin, source: unknown = frameWindow) {
    window.dispatchEvent(new MessageEvent("message", { data, origin, source: source as Window }));
  }
  // The real frame is a page of the proxy; here no page is loaded at all.
  const src = Object.getOwnPropertyDescriptor(HTMLIFrameElement.prototype, "src");
  const contentWindow = Object.getOwnPropertyDescriptor(HTMLIFrameElement.prototype, "contentWindow");
  Object.defineProperty(HTMLIFrameElement.prototype, "src", {
    configurable: true,
    // Read by the DOM to load the page: nothing to load. The widget's URL is in data-src.
    get: () => "",
    set(this: HTMLIFrameElement, value: string) {
      this.setAttribute("data-src", value);
    },
  });
  Object.defineProperty(HTMLIFrameElement.prototype, "contentWindow", {
    configurable: true,
    get: () => frameWindow,
  });
  // An empty srcdoc is what the DOM loads instead (no page, no "loading is disabled" noise).
  Object.defineProperty(HTMLIFrameElement.prototype, "getAttribute", {
    configurable: true,
    value(this: HTMLIFrameElement, name: string) {
      return name === "srcdoc" ? "" : Element.prototype.getAttribute.call(this, name);
    },
  });
  return {
    posted,
    send,
    /** The card the donor typed is complete (or not), as the frame reports it. */
    cardComplete(complete = true, brand = "visa") {
      send({ type: "givekit:card-state", complete, brand });
    },
    tokenizeRequests: () => posted.filter((entry) => entry.message.type === "givekit:tokenize"),
    replyWith(next: TokenReply) {
      reply = next;
    },
    restore() {
      if (src) Object.defineProperty(HTMLIFrameElement.prototype, "src", src);
      else delete (HTMLIFrameElement.prototype as unknown as Record<string, unknown>).src;
      delete (HTMLIFrameElement.prototype as unknown as Record<string, unknown>).getAttribute;
      if (contentWindow) Object.defineProperty(HTMLIFrameElement.prototype, "contentWindow", contentWindow);
      else delete (HTMLIFrameElement.prototype as unknown as Record<string, unknown>).contentWindow;
    },
  };
}

/**
 * For a file of tests: a fake card frame before each, and after each a clean page (nothing
 * rendered, no stub or spy left, the address back at "/"). Gives the running test's frame.
 */
export function useFakeCardFrame() {
  let frame: ReturnType<typeof installFakeCardFrame>;
  beforeEach(() => {
    frame = installFakeCardFrame();
  });
  afterEach(() => {
    cleanup();
    frame.restore();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    document.body.innerHTML = "";
    history.replaceState(null, "", "/");
  });
  return () => frame;
}

/** The donor's name and e-mail as a donor types them, and a card the frame says is complete. */
export function fillDonor(widget: ReturnType<typeof within>, frame: ReturnType<typeof installFakeCardFrame>) {
  fireEvent.input(widget.getByLabelText("First name", { selector: "input" }), { target: { value: "Ada" } });
  fireEvent.input(widget.getByLabelText("Last name"), { target: { value: "Lovelace" } });
  fireEvent.input(widget.getByLabelText("E-mail", { selector: "#gk-email" }), {
    target: { value: "ada@example.org" },
  });
  frame.cardComplete();
}

/** Every field a nonprofit can turn on: the tests of what each does see them all. */
export const ALL_FIELDS = "phone,address,memo,pledge-wall,sms,anonymous";

/**
 * Renders the donate widget with `attributes` (as a page would set them; every field turned on
 * unless `fields` says otherwise) and waits for the campaign and the rest of the form to load. Events the widget fires are
 * collected in `events`.
 */
export async function renderDonate(attributes: Record<string, string> = {}) {
  const all: Record<string, string> = {
    proxy: PROXY,
    shortcode: "71777",
    keyword: "HOPE",
    fields: ALL_FIELDS,
    // The SMS box's disclosure names them: without all three it is left out.
    "program-name": "Hope Shelter Alerts",
    "terms-url": "https://hope.example.org/sms-terms",
    "privacy-url": "https://hope.example.org/privacy",
    ...attributes,
  };
  const result = readDonateAttributes((name) => all[name] ?? null);
  if (!result.ok) throw new Error(result.problem);
  const host = document.createElement("div");
  document.body.append(host);
  const events: { type: string; detail: unknown }[] = [];
  for (const type of ["givekit:ready", "givekit:donation", "givekit:error"]) {
    host.addEventListener(type, (event) => events.push({ type, detail: (event as CustomEvent).detail }));
  }
  const view = render(<DonateWidget {...result.props} host={host} />, { container: host });
  const widget = within(host);
  await widget.findByRole("button", { name: /^(Donate|Donar|Next|Siguiente)$|^(Donate|Donar) / });
  // And the rest of the form (later.ts, and the extras it turns on), as a donor has it by the time the gift is chosen.
  await loadLater(result.props.locale, extrasFor(result.props));
  return { ...view, host, events, widget };
}

/** The step shown (its heading's text), in steps: the one whose section is not hidden. */
const shownStep = (widget: ReturnType<typeof within>) =>
  widget.queryAllByRole("heading", { level: 3 })[0]?.textContent ?? null;

/** Presses Next, as a donor does, and waits for the next step; fails when the step is refused. */
export async function nextStep(widget: ReturnType<typeof within>) {
  const from = shownStep(widget);
  fireEvent.click(widget.getByRole("button", { name: /^(Next|Siguiente)$/ }));
  await waitFor(() => {
    const refused = widget
      .queryAllByRole("textbox")
      .filter((box: HTMLElement) => box.getAttribute("aria-invalid"));
    if (refused.length > 0)
      throw new Error(`Step "${from}" was refused: ${refused.map((box: HTMLElement) => box.id)}`);
    expect(shownStep(widget)).not.toBe(from);
  });
}

/**
 * The button named `name` (the Donate button): in steps, after pressing Next through the steps
 * before it (each step's fields filled in by then). At once on one page, or on the last step.
 */
export async function reach(widget: ReturnType<typeof within>, name: string | RegExp) {
  for (;;) {
    const found = widget.queryByRole("button", { name });
    if (found) return found;
    if (!widget.queryByRole("button", { name: /^(Next|Siguiente)$/ }))
      throw new Error(`No button ${String(name)}, and no Next button to reach it.`);
    await nextStep(widget);
  }
}

/**
 * After a try that charged nothing, gives again with a new card and checks what a retry must be:
 * a second tokenization, its new token, and a new idempotency key.
 */
export async function giveAgainWithNewCard(
  widget: ReturnType<typeof within>,
  frame: ReturnType<typeof installFakeCardFrame>,
  proxy: ReturnType<typeof stubProxy>,
  button: string,
) {
  frame.replyWith((id) => ({ type: "givekit:token", id, token: "tok_test_2", brand: "visa", last4: "4242" }));
  frame.cardComplete();
  fireEvent.click(await reach(widget, button));
  await widget.findByRole("heading", { name: "Thank you!" });
  const [first, second] = proxy.donationCalls();
  expect(second!.headers["idempotency-key"]).not.toBe(first!.headers["idempotency-key"]);
  expect((second!.body as { credit_card_token: string }).credit_card_token).toBe("tok_test_2");
  expect(frame.tokenizeRequests()).toHaveLength(2);
}

export { screen };
