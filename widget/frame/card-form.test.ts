import { fireEvent, screen, waitFor } from "@testing-library/preact";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { FromFrameMessage, ToFrameMessage } from "../../contract/frame";
import { frameEn } from "../i18n/frame-en";
import { frameEs } from "../i18n/frame-es";
import { frameVi } from "../i18n/frame-vi";
import { mountCardForm, type CardFormProps } from "./card-form";
import { FUTURE_EXPIRY, FUTURE_EXPIRY_TYPED } from "../../test/helpers/cards";

/** What takes each form mounted by a test away again. */
const unmounts: (() => void)[] = [];

afterEach(() => {
  for (const unmount of unmounts.splice(0)) unmount();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const HOPE = { shortcode: "71777", keyword: "HOPE" };
/** The frame's form session as openFormSession gives it once the proxy has answered. */
const SESSION = { open: () => undefined, current: async () => "fs-from-the-proxy" };
/** What the frame posts to /v1/payment-tokens for the good card, the campaign and the session. */
const GOOD_CARD_SENT = {
  card_number: "4242424242424242",
  cvv: "123",
  expiration_date: FUTURE_EXPIRY,
  // The campaign the frame was opened for, for the proxy's per-campaign signals.
  ...HOPE,
  // The honeypot, empty: a person never sees it.
  website: "",
  form_session: "fs-from-the-proxy",
};

/** The frame's height as a browser lays it out (this DOM lays nothing out: every box is 0 high). */
const FRAME_HEIGHT = 236;

/** The frame's words in another language, as start.ts loads them: Vietnamese's here. */
const wordsIn: CardFormProps["wordsIn"] = async (locale) =>
  locale === "vi" ? ["vi", frameVi] : ["en", frameEn];

function setup(t = frameEn, applyTheme?: CardFormProps["applyTheme"], height = FRAME_HEIGHT) {
  vi.spyOn(document.body, "getBoundingClientRect").mockReturnValue({ height } as DOMRect);
  const sent: FromFrameMessage[] = [];
  let deliver: ((message: ToFrameMessage) => void) | null = null;
  const channel = {
    send: (message: FromFrameMessage) => sent.push(message),
    listen: (handler: (message: ToFrameMessage) => void) => {
      deliver = handler;
      return () => {};
    },
  };
  const container = document.body.appendChild(document.createElement("div"));
  const unmount = mountCardForm(container, {
    channel,
    t,
    locale: "en",
    campaign: HOPE,
    formSession: SESSION,
    wordsIn,
    applyTheme,
  });
  unmounts.push(() => {
    unmount();
    container.remove();
  });
  return { sent, deliver: (message: ToFrameMessage) => deliver?.(message) };
}

const type = (label: string, value: string) =>
  fireEvent.input(screen.getByLabelText(label), { target: { value } });

function fillGoodCard() {
  type("Card number", "4242424242424242");
  type("Expiry date", FUTURE_EXPIRY);
  type("Security code", "123");
}

function answer(status: number, body: unknown, headers: Record<string, string> = {}) {
  const fetchStub = vi.fn<(url: string, init: RequestInit) => Promise<Response>>(
    async () =>
      new Response(JSON.stringify(body), {
        status,
        headers: { "Content-Type": "application/json", ...headers },
      }),
  );
  vi.stubGlobal("fetch", fetchStub);
  return fetchStub;
}

/** The Turnstile challenge the proxy asks for in these tests. */
const TURNSTILE = {
  provider: "turnstile",
  site_key: "1x-site",
  script_url: "https://challenge.example/api.js",
};

/** The proxy's answers to a card sent twice: Turnstile asked for, then the token `token` once proven. */
const challengedThen = (token: string) => [
  new Response(JSON.stringify({ code: "challenge_required", challenge: TURNSTILE }), { status: 403 }),
  new Response(JSON.stringify({ token, brand: "visa", last4: "4242" }), { status: 201 }),
];

describe("the card frame's form", () => {
  it("tells no height while it is not shown (opened early, or after the gift), and its height once it is", () => {
    const { sent, deliver } = setup(frameEn, () => undefined, 0);
    deliver({ type: "givekit:theme" });
    expect(sent.filter((message) => message.type === "givekit:resize")).toEqual([]);
  });

  it("tells its height only once it has the page's look (the page's text size sets it)", () => {
    const { sent, deliver } = setup(frameEn, () => undefined);
    const resizes = () => sent.filter((message) => message.type === "givekit:resize");
    expect(resizes()).toEqual([]);
    deliver({ type: "givekit:theme", size: "18px" });
    expect(resizes()).toEqual([{ type: "givekit:resize", height: FRAME_HEIGHT }]);
  });

  it("takes the page's look by message, and tells a page that listens only now the card's state", () => {
    const looks: unknown[] = [];
    const { sent, deliver } = setup(frameEn, (theme) => looks.push(theme));
    type("Card number", "4242424242424242");
    sent.length = 0;
    deliver({ type: "givekit:theme", text: "rgb(0, 0, 0)", size: "18px" });
    expect(looks).toEqual([{ text: "rgb(0, 0, 0)", size: "18px" }]);
    expect(sent).toContainEqual({ type: "givekit:card-state", complete: false, brand: "visa" });
    // The look is not a reset: what was typed stays.
    expect(screen.getByLabelText("Card number")).toHaveProperty("value", "4242 4242 4242 4242");
  });

  it("spaces the number as typed and shows the brand", () => {
    const { sent } = setup();
    type("Card number", "4242424242424242");
    expect(screen.getByLabelText("Card number")).toHaveProperty("value", "4242 4242 4242 4242");
    expect(screen.getByText("Visa")).toBeTruthy();
    expect(sent).toContainEqual({ type: "givekit:card-state", complete: false, brand: "visa" });
    expect(sent[0]).toEqual({ type: "givekit:frame-ready" });
    expect(sent.some((message) => message.type === "givekit:resize")).toBe(true);
  });

  it("tells the page its height only once its stylesheet applies, not the unstyled fields' height", () => {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    document.head.append(link);
    // A stylesheet still loading has no sheet yet.
    let loaded = false;
    Object.defineProperty(link, "sheet", { get: () => (loaded ? {} : null) });
    try {
      const { sent } = setup();
      const resizes = () => sent.filter((message) => message.type === "givekit:resize");
      expect(resizes()).toEqual([]);
      loaded = true;
      link.dispatchEvent(new Event("load"));
      expect(resizes()).toHaveLength(1);
    } finally {
      link.remove();
    }
  });

  it("sizes the security code by brand", () => {
    setup();
    type("Card number", "378282246310005");
    expect(screen.getByLabelText("Card number")).toHaveProperty("value", "3782 822463 10005");
    expect(screen.getByText("American Express")).toBeTruthy();
    expect(screen.getByText("4 digits")).toBeTruthy();
  });

  it("checks Luhn as soon as the number is complete, and the other fields when left", () => {
    setup();
    type("Card number", "4242424242424241");
    const number = screen.getByLabelText("Card number");
    expect(number.getAttribute("aria-invalid")).toBe("true");
    expect(document.getElementById(number.getAttribute("aria-describedby")!)?.textContent).toBe(
      "The card number is not valid.",
    );
    type("Expiry date", "01/2020");
    expect(screen.getByText("The card has expired.")).toBeTruthy();
    type("Security code", "12");
    fireEvent.blur(screen.getByLabelText("Security code"));
    expect(screen.getByText("Enter the 3-digit security code.")).toBeTruthy();
  });

  it("takes MM/YY and shows it as MM/YYYY", () => {
    setup();
    type("Expiry date", FUTURE_EXPIRY_TYPED.replace("/", ""));
    const expiry = screen.getByLabelText("Expiry date");
    expect(expiry).toHaveProperty("value", FUTURE_EXPIRY_TYPED);
    fireEvent.blur(expiry);
    expect(expiry).toHaveProperty("value", FUTURE_EXPIRY);
    expect(screen.queryByText("The card has expired.")).toBeNull();
  });

  it("reports the card complete only when every check passes", () => {
    const { sent } = setup();
    fillGoodCard();
    expect(sent.at(-1)).toEqual({ type: "givekit:card-state", complete: true, brand: "visa" });
  });

  it("takes a card filled in one go by autofill: one input event, or change alone, focused or not", () => {
    const { sent } = setup();
    const number = screen.getByLabelText("Card number") as HTMLInputElement;
    fireEvent.input(number, { target: { value: "4242 4242 4242 4242" } });
    // A password manager: the value set, then only `change`, the field never focused.
    fireEvent.change(screen.getByLabelText("Expiry date"), { target: { value: FUTURE_EXPIRY_TYPED } });
    fireEvent.change(screen.getByLabelText("Security code"), { target: { value: "123" } });
    expect(document.activeElement).not.toBe(number);
    expect(number.value).toBe("4242 4242 4242 4242");
    expect(sent.at(-1)).toEqual({ type: "givekit:card-state", complete: true, brand: "visa" });
    expect(screen.queryByText(/not valid|Enter the/)).toBeNull();
  });

  it("reads a card set with no event at all when asked to tokenize", async () => {
    const fetchStub = answer(201, { token: "tok_5", brand: "visa", last4: "4242" });
    const { sent, deliver } = setup();
    (screen.getByLabelText("Card number") as HTMLInputElement).value = "4242424242424242";
    (screen.getByLabelText("Expiry date") as HTMLInputElement).value = FUTURE_EXPIRY;
    (screen.getByLabelText("Security code") as HTMLInputElement).value = "123";
    deliver({ type: "givekit:tokenize", id: "t-9" });
    await waitFor(() => expect(sent.at(-1)?.type).toBe("givekit:token"));
    expect(JSON.parse(String(fetchStub.mock.calls[0]![1].body))).toEqual(GOOD_CARD_SENT);
  });

  it("keeps a field filled in with no event when the donor then types in another", () => {
    const { sent } = setup();
    const expiry = screen.getByLabelText("Expiry date") as HTMLInputElement;
    const cvv = screen.getByLabelText("Security code") as HTMLInputElement;
    // A password manager sets the expiry and code and says nothing; the donor types the number.
    expiry.value = FUTURE_EXPIRY;
    cvv.value = "123";
    type("Card number", "4242424242424242");
    expect(expiry.value).toBe(FUTURE_EXPIRY);
    expect(cvv.value).toBe("123");
    expect(sent.at(-1)).toEqual({ type: "givekit:card-state", complete: true, brand: "visa" });
  });

  it("keeps each error's line from the start, so leaving a field with an error moves nothing", () => {
    setup();
    const cvv = screen.getByLabelText("Security code");
    const line = document.getElementById("cvv-error")!;
    expect(line.textContent).toBe("");
    expect(cvv.getAttribute("aria-describedby")).toBe("cvv-hint");
    type("Security code", "12");
    fireEvent.blur(cvv);
    expect(document.getElementById("cvv-error")).toBe(line);
    expect(line.textContent).toBe("Enter the 3-digit security code.");
    expect(cvv.getAttribute("aria-describedby")).toBe("cvv-error cvv-hint");
  });

  it("asks the page to give when the donor presses Enter in a card field", () => {
    const { sent } = setup();
    fillGoodCard();
    const before = sent.length;
    fireEvent.submit(screen.getByLabelText("Security code").closest("form")!);
    expect(sent.slice(before)).toEqual([{ type: "givekit:submit" }]);
  });

  it("on request posts the card to /v1/payment-tokens and hands back only token, brand and last 4", async () => {
    const fetchStub = answer(201, { token: "tok_9", brand: "visa", last4: "4242", extra: "ignored" });
    const { sent, deliver } = setup();
    fillGoodCard();
    deliver({ type: "givekit:tokenize", id: "t-1" });
    await waitFor(() => expect(sent.at(-1)?.type).toBe("givekit:token"));
    expect(sent.at(-1)).toEqual({
      type: "givekit:token",
      id: "t-1",
      token: "tok_9",
      brand: "visa",
      last4: "4242",
    });
    const [url, init] = fetchStub.mock.calls[0]!;
    expect(url).toBe("/v1/payment-tokens");
    expect(JSON.parse(String(init.body))).toEqual(GOOD_CARD_SENT);
    for (const message of sent) {
      expect(JSON.stringify(message)).not.toContain("4242424242424242");
    }
  });

  it("has a honeypot no person meets: hidden from assistive technology, out of the tab order, no label", () => {
    setup();
    const honeypot = document.querySelector<HTMLInputElement>('input[name="website"]')!;
    expect(honeypot).toBeTruthy();
    expect(honeypot.tabIndex).toBe(-1);
    expect(honeypot.closest('[aria-hidden="true"]')).toBeTruthy();
    expect(honeypot.getAttribute("autocomplete")).toBe("off");
    // The accessible fields are exactly the card's three.
    expect(screen.getAllByRole("textbox").map((input) => input.getAttribute("name"))).toEqual([
      "cardnumber",
      "exp-date",
      "cvc",
    ]);
  });

  it("sends what a bot typed into the honeypot, for the proxy to refuse", async () => {
    const fetchStub = answer(402, { code: "card_declined" });
    const { sent, deliver } = setup();
    fillGoodCard();
    fireEvent.input(document.querySelector('input[name="website"]')!, { target: { value: "spam" } });
    deliver({ type: "givekit:tokenize", id: "t-bot" });
    await waitFor(() =>
      expect(sent.at(-1)).toMatchObject({ type: "givekit:token-error", code: "card_declined" }),
    );
    expect(JSON.parse(String(fetchStub.mock.calls[0]![1].body))).toMatchObject({ website: "spam" });
  });

  it("refuses an incomplete card without a request, and shows why", () => {
    const fetchStub = answer(201, {});
    const { sent, deliver } = setup();
    type("Card number", "4242");
    deliver({ type: "givekit:tokenize", id: "t-2" });
    expect(sent.at(-1)).toEqual({ type: "givekit:token-error", id: "t-2", code: "validation_failed" });
    expect(screen.getByText("The card number is not valid.")).toBeTruthy();
    expect(screen.getByText("Enter the expiry date as MM/YYYY.")).toBeTruthy();
    expect(fetchStub).not.toHaveBeenCalled();
  });

  it("passes on the proxy's refusal and marks the fields it names", async () => {
    answer(400, {
      type: "about:blank",
      title: "Invalid",
      status: 400,
      code: "validation_failed",
      errors: { card_number: ["The card number is not valid."] },
    });
    const { sent, deliver } = setup();
    fillGoodCard();
    deliver({ type: "givekit:tokenize", id: "t-3" });
    await waitFor(() => expect(sent.at(-1)?.type).toBe("givekit:token-error"));
    expect(sent.at(-1)).toMatchObject({ id: "t-3", code: "validation_failed" });
    expect(screen.getByLabelText("Card number").getAttribute("aria-invalid")).toBe("true");
  });

  it("a card the proxy holds (429) is passed on with when to come back, the proxy's Retry-After", async () => {
    answer(429, { code: "rate_limited" }, { "Retry-After": "4" });
    const { sent, deliver } = setup();
    fillGoodCard();
    deliver({ type: "givekit:tokenize", id: "t-held" });
    await waitFor(() =>
      expect(sent.at(-1)).toEqual({
        type: "givekit:token-error",
        id: "t-held",
        code: "rate_limited",
        retryAfterS: 4,
      }),
    );
  });

  it("says the proxy could not be reached", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn<typeof fetch>(async () => Promise.reject(new TypeError("Failed to fetch"))),
    );
    const { sent, deliver } = setup();
    fillGoodCard();
    deliver({ type: "givekit:tokenize", id: "t-4" });
    await waitFor(() =>
      expect(sent.at(-1)).toEqual({ type: "givekit:token-error", id: "t-4", code: "network_error" }),
    );
  });

  it("clears the card when asked, and moves focus to what is missing", () => {
    const { deliver } = setup();
    fillGoodCard();
    deliver({ type: "givekit:reset" });
    expect(screen.getByLabelText("Card number")).toHaveProperty("value", "");
    type("Card number", "4242424242424242");
    deliver({ type: "givekit:focus" });
    expect(document.activeElement).toBe(screen.getByLabelText("Expiry date"));
  });

  it("as the donor comes to the card, focuses its first empty field and shows no error yet", () => {
    const { deliver } = setup();
    deliver({ type: "givekit:start" });
    const number = screen.getByLabelText("Card number");
    expect(document.activeElement).toBe(number);
    expect(number.getAttribute("aria-invalid")).toBeNull();
    expect(screen.getByLabelText("Expiry date").getAttribute("aria-invalid")).toBeNull();
    // Asked to show what is missing (Donate pressed), it does.
    deliver({ type: "givekit:focus" });
    expect(number.getAttribute("aria-invalid")).toBe("true");
  });

  it("a switch of the form's language redraws the labels, hints and errors in it, the card typed kept", async () => {
    const { deliver } = setup();
    type("Card number", "4242 4242 4242 4242");
    type("Expiry date", "13/20");
    fireEvent.blur(screen.getByLabelText("Expiry date"));
    deliver({ type: "givekit:locale", locale: "vi" });
    const number = await screen.findByLabelText(frameVi.number);
    expect(number).toHaveProperty("value", "4242 4242 4242 4242");
    expect(screen.getByLabelText(frameVi.expiry)).toHaveProperty("value", "13/20");
    expect(screen.getByText(frameVi.expiryHint)).toBeTruthy();
    expect(screen.getByText(frameVi.expiryInvalid)).toBeTruthy();
    expect(screen.queryByText(frameEn.expiryInvalid)).toBeNull();
    expect(screen.getByLabelText(frameVi.cvv)).toBeTruthy();
  });

  it("a switch while the challenge shows redraws its words in the new language", async () => {
    answer(403, { code: "challenge_required", challenge: TURNSTILE });
    const render = vi.fn<() => string>(() => "w1");
    vi.stubGlobal("turnstile", { render, remove: vi.fn<() => void>() });
    const { deliver } = setup();
    fillGoodCard();
    deliver({ type: "givekit:tokenize", id: "t-9" });
    await screen.findByRole("region", { name: frameEn.challengeTitle });
    deliver({ type: "givekit:locale", locale: "vi" });
    await screen.findByRole("region", { name: frameVi.challengeTitle });
    expect(screen.getByRole("status").textContent).toBe(frameVi.challengeStatus.shown);
    // Drawn before the test ends, so no later test's Turnstile draws it.
    await waitFor(() => expect(render).toHaveBeenCalled());
  });

  it("a Turnstile challenge on screen is drawn again in the new language; its proof answers the same wait", async () => {
    const replies = challengedThen("tok_8");
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => replies.shift()!),
    );
    type DrawOptions = { language: string; callback: (token: string) => void };
    const draw = vi.fn<(container: HTMLElement, options: DrawOptions) => string>((container, options) => {
      container.append(Object.assign(document.createElement("button"), { textContent: options.language }));
      return `w-${options.language}`;
    });
    const remove = vi.fn<(id: string) => void>();
    vi.stubGlobal("turnstile", { render: draw, remove });
    const { sent, deliver } = setup();
    fillGoodCard();
    deliver({ type: "givekit:tokenize", id: "t-10" });
    await waitFor(() => expect(draw.mock.calls.map(([, options]) => options.language)).toEqual(["en"]));
    deliver({ type: "givekit:locale", locale: "vi" });
    await waitFor(() => expect(draw.mock.calls.map(([, options]) => options.language)).toEqual(["en", "vi"]));
    // The English one taken away, one challenge on screen: the Vietnamese.
    expect(remove).toHaveBeenCalledWith("w-en");
    const region = screen.getByRole("region", { name: frameVi.challengeTitle });
    expect([...region.querySelectorAll("button")].map((button) => button.textContent)).toEqual(["vi"]);
    draw.mock.calls[1]![1].callback("proof-vi");
    await waitFor(() =>
      expect(sent.at(-1)).toEqual({
        type: "givekit:token",
        id: "t-10",
        token: "tok_8",
        brand: "visa",
        last4: "4242",
      }),
    );
  });

  it("speaks Spanish", () => {
    setup(frameEs);
    expect(screen.getByLabelText("Número de tarjeta").getAttribute("autocomplete")).toBe("cc-number");
    expect(screen.getByLabelText("Fecha de vencimiento").getAttribute("autocomplete")).toBe("cc-exp");
    expect(screen.getByLabelText("Código de seguridad").getAttribute("autocomplete")).toBe("cc-csc");
  });

  it("in defence mode shows the challenge in a labelled region with the focus, then retries with its proof", async () => {
    const replies = challengedThen("tok_7");
    const fetchStub = vi.fn<(url: string, init: RequestInit) => Promise<Response>>(async () =>
      replies.shift()!,
    );
    vi.stubGlobal("fetch", fetchStub);
    let pass: ((token: string) => void) | null = null;
    type DrawOptions = { sitekey: string; callback: (token: string) => void };
    const draw = vi.fn<(container: HTMLElement, options: DrawOptions) => string>((container, options) => {
      container.append(Object.assign(document.createElement("button"), { textContent: "I am human" }));
      pass = options.callback;
      return "w1";
    });
    vi.stubGlobal("turnstile", { render: draw, remove: vi.fn<() => void>() });
    const { sent, deliver } = setup();
    fillGoodCard();
    deliver({ type: "givekit:tokenize", id: "t-1" });

    const region = await screen.findByRole("region", { name: "Confirm you are a person" });
    await waitFor(() => expect(document.activeElement).toBe(region));
    expect(screen.getByRole("status").textContent).toBe(frameEn.challengeStatus.shown);
    // The region has the focus as it shows; Turnstile draws into it a turn later.
    await waitFor(() => expect(draw.mock.calls[0]![1]).toMatchObject({ sitekey: "1x-site" }));
    expect(sent.some((message) => message.type === "givekit:token")).toBe(false);
    // The page asks again meanwhile (its own retry): the one answer goes to its latest request.
    deliver({ type: "givekit:tokenize", id: "t-2" });
    pass!("proof-123");

    await waitFor(() =>
      expect(sent.at(-1)).toEqual({
        type: "givekit:token",
        id: "t-2",
        token: "tok_7",
        brand: "visa",
        last4: "4242",
      }),
    );
    expect(fetchStub).toHaveBeenCalledTimes(2);
    expect(JSON.parse(String(fetchStub.mock.calls[1]![1].body))).toMatchObject({
      challenge_token: "proof-123",
    });
    expect(JSON.parse(String(fetchStub.mock.calls[0]![1].body))).not.toHaveProperty("challenge_token");
    expect(screen.queryByRole("region")).toBeNull();
  });

  it("a challenge that fails says so and reports challenge_failed to the page, nothing charged", async () => {
    answer(403, { code: "challenge_required", challenge: TURNSTILE });
    vi.stubGlobal("turnstile", {
      render: (_container: HTMLElement, options: { "error-callback": () => void }) => {
        setTimeout(() => options["error-callback"](), 0);
        return "w1";
      },
    });
    const { sent, deliver } = setup();
    fillGoodCard();
    deliver({ type: "givekit:tokenize", id: "t-3" });
    await waitFor(() =>
      expect(sent.at(-1)).toEqual({ type: "givekit:token-error", id: "t-3", code: "challenge_failed" }),
    );
    expect(screen.getByRole("status").textContent).toBe(frameEn.challengeStatus.failed);
  });
});
