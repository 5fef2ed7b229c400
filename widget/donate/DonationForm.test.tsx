import { fireEvent, waitFor, within } from "@testing-library/preact";
import { describe, expect, it, vi } from "vitest";
import { BREAKER_PATIENCE_MS } from "./outcome/attempt";
import {
  giveAgainWithNewCard,
  HOPE,
  useFakeCardFrame,
  problem,
  nextStep,
  reach,
  renderDonate,
  stubProxy,
  success,
  HOPE_CONTEXT,
} from "../../test/helpers/donate-harness";

const frame = useFakeCardFrame();

type Widget = Awaited<ReturnType<typeof renderDonate>>["widget"];

function type(field: HTMLElement, value: string) {
  fireEvent.input(field, { target: { value } });
}

function fillDonor(widget: Widget, donor = { first: "Grace", last: "Hopper", email: "grace@example.org" }) {
  type(widget.getByLabelText("First name"), donor.first);
  type(widget.getByLabelText("Last name"), donor.last);
  type(widget.getByLabelText("E-mail"), donor.email);
}

/** A deferred answer, to look at the form while the request is in flight. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe("the donation form", () => {
  it("names every group and field, with the autocomplete tokens browsers fill in", async () => {
    stubProxy();
    const { widget, events } = await renderDonate({ layout: "single" });
    expect(widget.getByRole("heading", { name: "Make a donation" })).toBeTruthy();
    const often = widget.getByRole("group", { name: "How often" });
    expect(
      within(often)
        .getAllByRole("radio")
        .map((radio) => radio.getAttribute("value")),
    ).toEqual(["once", "monthly"]);
    const amount = widget.getByRole("group", { name: "Amount" });
    expect(
      within(amount)
        .getAllByRole("radio")
        .map((radio) => (radio as HTMLInputElement).labels?.[0]?.textContent),
    ).toEqual(["$25", "$50", "$100", "$250", "Other"]);
    expect(widget.getByRole("radio", { name: "$25" })).toHaveProperty("checked", true);
    const tokens: Record<string, string> = {
      "First name": "given-name",
      "Last name": "family-name",
      "E-mail": "email",
      "Phone (optional)": "tel",
      "Street address (optional)": "address-line1",
      "City (optional)": "address-level2",
      "State or province (optional)": "address-level1",
      Country: "country",
      "ZIP code (optional)": "postal-code",
    };
    for (const [label, token] of Object.entries(tokens)) {
      expect(widget.getByLabelText(label).getAttribute("autocomplete")).toBe(token);
    }
    // The frame is the proxy's, told the page's origin and the language; the form's text size by message.
    const frameUrl = new URL(widget.getByTitle("Card details").getAttribute("data-src")!);
    expect(`${frameUrl.origin}${frameUrl.pathname}`).toBe("https://give.example.org/frame/card");
    expect(frameUrl.searchParams.get("origin")).toBe(location.origin);
    expect(frameUrl.searchParams.get("locale")).toBe("en");
    expect(frameUrl.searchParams.get("size")).toBeNull();
    expect(frame().posted).toContainEqual({
      message: expect.objectContaining({
        type: "givekit:theme",
        size: expect.stringMatching(/^\d+(\.\d+)?px$/),
      }),
      targetOrigin: "https://give.example.org",
    });
    // And the campaign, which the frame names with the card for the proxy's per-campaign signals.
    expect(frameUrl.searchParams.get("shortcode")).toBe("71777");
    expect(frameUrl.searchParams.get("keyword")).toBe("HOPE");
    // The SMS box names its program (program-name is required with it, as for <givekit-optin>).
    const sms = widget.getByRole("checkbox", { name: "Text me updates from Hope Shelter Alerts" });
    expect(sms).toHaveProperty("checked", false);
    expect(document.getElementById(sms.getAttribute("aria-describedby")!)?.textContent).toMatch(
      /Msg frequency varies\. Msg & data rates may apply\. Reply HELP for help, STOP to cancel\./,
    );
    expect(widget.getByRole("checkbox", { name: "Make my gift anonymous" })).toBeTruthy();
    expect(widget.getByRole("checkbox", { name: "Show my gift on the pledge wall" })).toBeTruthy();
    expect(widget.getByLabelText("Message (optional)").tagName).toBe("TEXTAREA");
    expect(widget.getByRole("button", { name: "Donate $25.00" })).toBeTruthy();
    expect(events).toEqual([
      { type: "givekit:ready", detail: { widget: "donate", ...HOPE_CONTEXT, frequency: "once" } },
    ]);
  });

  it("shows the exact fee the donor may cover, and the total on the button", async () => {
    stubProxy();
    const { widget } = await renderDonate({ layout: "single" });
    fireEvent.click(widget.getByRole("checkbox", { name: "Add $0.75 to cover the processing fee" }));
    expect(widget.getByRole("button", { name: "Donate $25.75" })).toBeTruthy();
    fireEvent.click(widget.getByRole("radio", { name: "$250" }));
    expect(widget.getByRole("checkbox", { name: "Add $7.50 to cover the processing fee" })).toBeTruthy();
    fireEvent.click(widget.getByRole("radio", { name: "Monthly" }));
    expect(widget.getByRole("button", { name: "Donate $257.50 monthly" })).toBeTruthy();
    fireEvent.click(widget.getByRole("radio", { name: "Other" }));
    type(widget.getByLabelText("Other amount"), "33.33");
    // 3 % of $33.33 is 99.99 cents: rounded half up to the cent.
    expect(widget.getByRole("checkbox", { name: "Add $1.00 to cover the processing fee" })).toBeTruthy();
    expect(widget.getByRole("button", { name: "Donate $34.33 monthly" })).toBeTruthy();
  });

  it("offers only the frequencies both the page and the campaign allow", async () => {
    stubProxy({ campaign: { status: 200, body: { ...HOPE, recurring_frequencies: [] } } });
    const { widget } = await renderDonate({
      layout: "single",
      frequencies: "once,monthly",
      "default-frequency": "monthly",
    });
    expect(widget.queryByRole("group", { name: "How often" })).toBeNull();
    expect(widget.getByRole("button", { name: "Donate $25.00" })).toBeTruthy();
  });

  it("stops an incomplete form before anything is sent: errors tied to fields, focus on the first, a count announced", async () => {
    const proxy = stubProxy();
    const { widget, events } = await renderDonate({ layout: "single" });
    fireEvent.click(await reach(widget, "Donate $25.00"));

    const first = widget.getByLabelText("First name");
    await waitFor(() => expect(document.activeElement).toBe(first));
    for (const [label, message] of [
      ["First name", "Enter your first name."],
      ["Last name", "Enter your last name."],
      ["E-mail", "Enter an e-mail address such as name@example.org."],
    ] as const) {
      const field = widget.getByLabelText(label);
      expect(field.getAttribute("aria-invalid")).toBe("true");
      expect(
        document.getElementById(field.getAttribute("aria-describedby")!.split(" ")[0]!)?.textContent,
      ).toBe(message);
    }
    // The frame is the page's element (shown through the form's slot): its problem is its description.
    const card = widget.getByTitle("Card details");
    expect(card.getAttribute("aria-description")).toBe("Check your card details.");
    expect(widget.getByText("Please fix 4 fields.")).toBeTruthy();
    expect(proxy.donationCalls()).toHaveLength(0);
    expect(frame().tokenizeRequests()).toHaveLength(0);
    expect(events.at(-1)).toEqual({ type: "givekit:error", detail: { code: "validation_failed" } });

    type(first, "Grace");
    expect(first.getAttribute("aria-invalid")).toBeNull();
  });

  it("refuses an e-mail, amount or phone the contract refuses, with the campaign's range", async () => {
    const proxy = stubProxy();
    const { widget } = await renderDonate({ layout: "single" });
    fillDonor(widget, { first: "Grace", last: "Hopper", email: "not-an-address" });
    type(widget.getByLabelText("Phone (optional)"), "555-0101");
    fireEvent.click(widget.getByRole("radio", { name: "Other" }));
    type(widget.getByLabelText("Other amount"), "2");
    frame().cardComplete();
    fireEvent.click(await reach(widget, "Donate $2.00"));
    await widget.findByText("Enter an amount between $5.00 and $10,000.00.");
    expect(document.activeElement).toBe(widget.getByLabelText("Other amount"));
    expect(widget.getByText("Enter an e-mail address such as name@example.org.")).toBeTruthy();
    expect(widget.getByText("Enter a US or Canadian phone number.")).toBeTruthy();
    expect(proxy.donationCalls()).toHaveLength(0);
  });

  it("asks for a phone number when the donor wants text messages", async () => {
    stubProxy();
    const { widget } = await renderDonate({ layout: "single" });
    fillDonor(widget);
    frame().cardComplete();
    fireEvent.click(widget.getByRole("checkbox", { name: /Text me updates/ }));
    fireEvent.click(await reach(widget, "Donate $25.00"));
    await widget.findByText("Enter your mobile number to get text messages.");
    expect(document.activeElement).toBe(widget.getByLabelText("Phone (optional)"));
  });

  it("gives when the donor presses Enter in a card field, as the frame reports it, once", async () => {
    const proxy = stubProxy({ donations: [success()] });
    const { widget } = await renderDonate();
    fillDonor(widget);
    await reach(widget, "Donate $25.00");
    frame().cardComplete();
    frame().send({ type: "givekit:submit" });
    await widget.findByRole("heading", { name: "Thank you!" });
    expect(proxy.donationCalls()).toHaveLength(1);
    expect(frame().tokenizeRequests()).toHaveLength(1);
  });

  it("asks the frame for a token even before it reports the card complete: its word on the way is not lost", async () => {
    const proxy = stubProxy({ donations: [success()] });
    const { widget } = await renderDonate();
    fillDonor(widget);
    // The card-state message of the last key typed has not arrived yet when the donor clicks.
    fireEvent.click(await reach(widget, "Donate $25.00"));
    await widget.findByRole("heading", { name: "Thank you!" });
    expect(frame().tokenizeRequests()).toHaveLength(1);
    expect(proxy.donationCalls()).toHaveLength(1);
  });

  it("takes Enter from no other window or origin than the card frame's", async () => {
    const proxy = stubProxy({ donations: [success()] });
    const { widget } = await renderDonate();
    fillDonor(widget);
    await reach(widget, /^Donate/);
    frame().cardComplete();
    frame().send({ type: "givekit:submit" }, "https://evil.example");
    frame().send({ type: "givekit:submit" }, undefined, window);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(frame().tokenizeRequests()).toHaveLength(0);
    expect(proxy.donationCalls()).toHaveLength(0);
    expect(widget.getByRole("button", { name: /^Donate/ })).toBeTruthy();
  });

  it("sends a complete donation with a token, never a card, and thanks the donor", async () => {
    const answer = deferred<ReturnType<typeof success>>();
    const proxy = stubProxy({ donations: [answer.promise] });
    const { widget, events } = await renderDonate({ "form-id": "form-hope-walk" });
    fireEvent.click(widget.getByRole("radio", { name: "Monthly" }));
    fireEvent.click(widget.getByRole("checkbox", { name: "Add $0.75 to cover the processing fee" }));
    fillDonor(widget);
    type(widget.getByLabelText("Phone (optional)"), "(555) 010-1234");
    type(widget.getByLabelText("ZIP code (optional)"), "02139");
    await nextStep(widget);
    fireEvent.click(widget.getByRole("checkbox", { name: "Make my gift anonymous" }));
    fireEvent.click(widget.getByRole("checkbox", { name: "Show my gift on the pledge wall" }));
    fireEvent.click(widget.getByRole("checkbox", { name: /Text me updates/ }));
    type(widget.getByLabelText("Message (optional)"), "For the walkers");
    frame().cardComplete();
    fireEvent.click(await reach(widget, "Donate $25.75 monthly"));

    const busy = await widget.findByRole("button", { name: "Processing your donation…" });
    expect(busy).toHaveProperty("disabled", true);
    await waitFor(() => expect(proxy.donationCalls()).toHaveLength(1));
    const [call] = proxy.donationCalls();
    expect(call!.headers["idempotency-key"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(call!.body).toEqual({
      shortcode: "71777",
      keyword: "HOPE",
      form_id: "form-hope-walk",
      amount: "25.00",
      cover_fee: true,
      recurring_frequency: "monthly",
      anonymous: true,
      pledge_wall: true,
      sms_opt_in_accepted: true,
      // The disclosure beside the box, word for word, for the consent record.
      sms_consent_text: expect.stringMatching(
        /^Optional\. By checking this box you agree to receive recurring automated text messages from Hope Shelter Alerts .* Terms Privacy Policy$/,
      ),
      // …and the language it was shown in.
      sms_consent_locale: "en",
      memo: "For the walkers",
      donor: {
        first_name: "Grace",
        last_name: "Hopper",
        email: "grace@example.org",
        phone: "(555) 010-1234",
        country: "US",
        zip: "02139",
      },
      credit_card_token: "tok_test_1",
    });
    expect(frame().tokenizeRequests()).toEqual([
      {
        message: { type: "givekit:tokenize", id: expect.any(String) },
        targetOrigin: "https://give.example.org",
      },
    ]);

    answer.resolve({
      status: 200,
      body: {
        donation: {
          status: "Success",
          message: "ok",
          transaction_id: "T-2001",
          amount: "25.75",
          fee_amount: "0.75",
          recurring_frequency: "monthly",
        },
      },
    });
    const thanks = await widget.findByRole("heading", { name: "Thank you!" });
    await waitFor(() => expect(document.activeElement).toBe(thanks));
    expect(widget.getByText("Your donation of $25.75 monthly went through.")).toBeTruthy();
    expect(widget.getByText("T-2001")).toBeTruthy();
    expect(events.filter((event) => event.type === "givekit:donation")).toEqual([
      {
        type: "givekit:donation",
        detail: {
          ...HOPE_CONTEXT,
          status: "Success",
          amount: "25.75",
          frequency: "monthly",
          transaction_id: "T-2001",
        },
      },
    ]);
    expect(frame().posted.map((entry) => entry.message.type)).toContain("givekit:reset");

    fireEvent.click(await reach(widget, "Make another donation"));
    await widget.findByRole("button", { name: "Next" });
    expect(await reach(widget, "Donate $25.75 monthly")).toBeTruthy();
  });

  it("after a decline says so, keeps the card editable, and uses a new key and token next time", async () => {
    const proxy = stubProxy({ donations: [problem(402, "card_declined"), success("25.00")] });
    const { widget, events } = await renderDonate();
    fillDonor(widget);
    frame().cardComplete();
    fireEvent.click(await reach(widget, "Donate $25.00"));
    expect((await widget.findByRole("alert")).textContent).toBe(
      "Your card was declined, so nothing was charged. Check the card details or use another card.",
    );
    expect(widget.getByTitle("Card details")).toBeTruthy();
    expect(events.at(-1)).toEqual({ type: "givekit:error", detail: { code: "card_declined" } });

    await giveAgainWithNewCard(widget, frame(), proxy, "Donate $25.00");
  });

  it.each([
    [
      "the proxy cannot be reached",
      "network-error" as const,
      "We could not reach the server. Check your connection and try again.",
    ],
    [
      "the service is down (503)",
      problem(503, "upstream_unavailable"),
      "The service is not answering right now. Nothing was charged; please try again in a few minutes.",
    ],
    [
      "the first attempt is still in flight (409)",
      problem(409, "request_in_progress"),
      "Your donation is still being processed. Wait a moment, then try again.",
    ],
  ])("when %s, a retry sends the very same request: same key, same token", async (_case, first, message) => {
    const proxy = stubProxy({ donations: [first, success()] });
    const { widget } = await renderDonate();
    fillDonor(widget);
    frame().cardComplete();
    fireEvent.click(await reach(widget, "Donate $25.00"));
    expect((await widget.findByRole("alert")).textContent).toBe(message);
    expect(document.activeElement).toBe(widget.getByRole("button", { name: "Donate $25.00" }));

    fireEvent.click(await reach(widget, "Donate $25.00"));
    await widget.findByRole("heading", { name: "Thank you!" });
    const [a, b] = proxy.donationCalls();
    expect(b!.headers["idempotency-key"]).toBe(a!.headers["idempotency-key"]);
    expect(b!.body).toEqual(a!.body);
    expect(frame().tokenizeRequests()).toHaveLength(1);
  });

  it("after a network failure, a changed form is a new attempt with a new key", async () => {
    const proxy = stubProxy({ donations: ["network-error", success("50.00")] });
    const { widget } = await renderDonate();
    fillDonor(widget);
    frame().cardComplete();
    fireEvent.click(await reach(widget, "Donate $25.00"));
    await widget.findByRole("alert");
    // Back to the amount, everything else as it was.
    fireEvent.click(widget.getByRole("button", { name: "Back" }));
    fireEvent.click(widget.getByRole("button", { name: "Back" }));
    fireEvent.click(await widget.findByRole("radio", { name: "$50" }));
    fireEvent.click(await reach(widget, "Donate $50.00"));
    await widget.findByRole("heading", { name: "Thank you!" });
    const [a, b] = proxy.donationCalls();
    expect(b!.headers["idempotency-key"]).not.toBe(a!.headers["idempotency-key"]);
  });

  it("says plainly when the outcome is unknown, gives the reference, and offers no second try", async () => {
    stubProxy({
      donations: [{ status: 202, body: { donation: { status: "Pending", reference: "att_7f3a" } } }],
    });
    const { widget, events } = await renderDonate();
    fillDonor(widget);
    frame().cardComplete();
    fireEvent.click(await reach(widget, "Donate $25.00"));
    const heading = await widget.findByRole("heading", { name: "We could not confirm your donation" });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(widget.getByText(/please do not donate again/)).toBeTruthy();
    expect(widget.getByText("att_7f3a")).toBeTruthy();
    expect(widget.queryByRole("button")).toBeNull();
    expect(events.at(-1)).toEqual({
      type: "givekit:donation",
      detail: {
        ...HOPE_CONTEXT,
        status: "Pending",
        amount: "25.00",
        frequency: "once",
        transaction_id: null,
      },
    });
  });

  it("waits through an open circuit breaker saying it is checking, then, held too long, says to try again in a minute or off Wi-Fi", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const proxy = stubProxy({
        donations: [problem(429, "rate_limited")],
      });
      const { widget, events } = await renderDonate();
      fillDonor(widget);
      frame().cardComplete();
      fireEvent.click(await reach(widget, "Donate $25.00"));
      const button = await widget.findByRole("button", {
        name: "Checking… If this takes long, try again in a minute, or switch off Wi-Fi.",
      });
      expect(button.hasAttribute("disabled")).toBe(true);
      expect(widget.queryByRole("alert")).toBeNull();
      await vi.advanceTimersByTimeAsync(BREAKER_PATIENCE_MS);
      expect((await widget.findByRole("alert")).textContent).toBe(
        "Too many gifts from this network right now. Try again in a minute.",
      );
      expect(events.at(-1)?.type).toBe("givekit:error");
      // Every try the same gift: one key.
      const keys = new Set(proxy.donationCalls().map((call) => call.headers["idempotency-key"]));
      expect(keys.size).toBe(1);
      expect(proxy.donationCalls().length).toBeGreaterThan(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it.each([
    [
      "blocked after declines",
      problem(429, "too_many_declines"),
      "Too many declined cards from this network, so nothing was charged. Please try again later.",
    ],
    [
      "refused by the upstream",
      problem(502, "payment_failed"),
      "The payment could not be processed, so nothing was charged. Please try another card.",
    ],
    [
      "answered with an upstream error",
      problem(502, "upstream_error"),
      "Something went wrong on our side. Please try again later.",
    ],
  ])("shows what to do when %s", async (_case, answer, message) => {
    stubProxy({ donations: [answer] });
    const { widget, events } = await renderDonate();
    fillDonor(widget);
    frame().cardComplete();
    fireEvent.click(await reach(widget, "Donate $25.00"));
    expect((await widget.findByRole("alert")).textContent).toBe(message);
    expect(events.at(-1)?.type).toBe("givekit:error");
  });

  it("puts the proxy's per-field errors on the right fields", async () => {
    stubProxy({
      donations: [
        problem(400, "validation_failed", {
          amount: ["The amount must be at most 10000.00."],
          "donor.email": ["Enter an e-mail address such as name@example.org."],
        }),
      ],
    });
    const { widget } = await renderDonate();
    fillDonor(widget);
    frame().cardComplete();
    fireEvent.click(await reach(widget, "Donate $25.00"));
    const email = widget.getByLabelText("E-mail");
    await waitFor(() => expect(email.getAttribute("aria-invalid")).toBe("true"));
    expect(document.getElementById(email.getAttribute("aria-describedby")!)?.textContent).toBe(
      "Enter an e-mail address such as name@example.org.",
    );
    expect(widget.getByText("Enter an amount between $5.00 and $10,000.00.")).toBeTruthy();
    expect(document.activeElement).toBe(widget.getByRole("radio", { name: "$25" }));
  });

  it("sends no token when the frame refuses the card, and points at the card", async () => {
    const proxy = stubProxy();
    const { widget } = await renderDonate();
    fillDonor(widget);
    frame().cardComplete();
    frame().replyWith((id) => ({ type: "givekit:token-error", id, code: "validation_failed" }));
    fireEvent.click(await reach(widget, "Donate $25.00"));
    await widget.findByText("Check your card details.");
    expect(frame().posted.map((entry) => entry.message.type)).toContain("givekit:focus");
    expect(proxy.donationCalls()).toHaveLength(0);
  });

  it.each([
    [
      "too_many_declines",
      "Too many declined cards from this network, so nothing was charged. Please try again later.",
    ],
  ] as const)("a card refused by a limit (%s) is told as it is, never as a decline", async (code, text) => {
    const proxy = stubProxy();
    const { widget } = await renderDonate();
    fillDonor(widget);
    frame().cardComplete();
    frame().replyWith((id) => ({ type: "givekit:token-error", id, code }));
    fireEvent.click(await reach(widget, "Donate $25.00"));
    expect(await widget.findByText(text)).toBeTruthy();
    expect(widget.queryByText(/declined, so nothing was charged. Check the card/)).toBeNull();
    expect(proxy.donationCalls()).toHaveLength(0);
  });

  it("renders markup in the heading attribute as text", async () => {
    stubProxy();
    const { widget, host } = await renderDonate({ heading: '<img src=x onerror="alert(1)">Give <b>now</b>' });
    expect(widget.getByRole("heading", { level: 2 }).textContent).toBe(
      '<img src=x onerror="alert(1)">Give <b>now</b>',
    );
    expect(host.querySelector("img, b")).toBeNull();
  });

  it("speaks Spanish, amounts included", async () => {
    stubProxy();
    const { widget } = await renderDonate({ layout: "single", locale: "es", "default-frequency": "monthly" });
    expect(widget.getByRole("heading", { name: "Haga una donación" })).toBeTruthy();
    expect(widget.getByRole("group", { name: "Frecuencia" })).toBeTruthy();
    expect(widget.getByLabelText("Nombre").getAttribute("autocomplete")).toBe("given-name");
    expect(widget.getByRole("button", { name: "Donar $25.00 al mes" })).toBeTruthy();
    expect(widget.getByTitle("Datos de la tarjeta").getAttribute("data-src")).toContain("locale=es");
    fireEvent.click(await reach(widget, "Donar $25.00 al mes"));
    expect(await widget.findByText("Escriba su nombre.")).toBeTruthy();
    expect(widget.getByText("Corrija 4 campos.")).toBeTruthy();
  });
});
