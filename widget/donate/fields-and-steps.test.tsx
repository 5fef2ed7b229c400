// The fields a nonprofit turns on (`fields`), and the form in steps (amount, you, card) or on one
// page (`layout="single"`).
import { fireEvent, waitFor, within } from "@testing-library/preact";
import { describe, expect, it, vi } from "vitest";
import { MEMO_MAX } from "../../contract/patterns";
import {
  useFakeCardFrame,
  nextStep,
  reach,
  renderDonate,
  stubProxy,
  success,
} from "../../test/helpers/donate-harness";

const frame = useFakeCardFrame();

type Widget = Awaited<ReturnType<typeof renderDonate>>["widget"];

function type(field: HTMLElement, value: string) {
  fireEvent.input(field, { target: { value } });
}

function fillDonor(widget: Widget) {
  type(widget.getByLabelText("First name"), "Grace");
  type(widget.getByLabelText("Last name"), "Hopper");
  type(widget.getByLabelText("E-mail"), "grace@example.org");
}

/** The text of the error a field is described by. */
const errorOf = (field: HTMLElement) =>
  document.getElementById(field.getAttribute("aria-describedby")!.split(" ")[0]!)?.textContent;

describe("fields the nonprofit turns on", () => {
  it("by default asks for name, e-mail and card only, and sends nothing else", async () => {
    const proxy = stubProxy();
    const { widget } = await renderDonate({ fields: "", layout: "single" });
    expect(widget.getByLabelText("First name")).toBeTruthy();
    expect(widget.getByLabelText("E-mail")).toBeTruthy();
    expect(widget.getByTitle("Card details")).toBeTruthy();
    for (const label of [/^Phone/, /^Street address/, /^City/, /^ZIP code/, "Country", /^Message/]) {
      expect(widget.queryByLabelText(label)).toBeNull();
    }
    expect(widget.queryByRole("checkbox", { name: /anonymous|pledge wall|Text me/ })).toBeNull();
    expect(widget.queryByRole("group", { name: "Options" })).toBeNull();

    fillDonor(widget);
    frame().cardComplete();
    fireEvent.click(widget.getByRole("button", { name: "Donate $25.00" }));
    await widget.findByRole("heading", { name: "Thank you!" });
    expect(proxy.donationCalls()[0]!.body).toEqual({
      shortcode: "71777",
      keyword: "HOPE",
      amount: "25.00",
      cover_fee: false,
      donor: { first_name: "Grace", last_name: "Hopper", email: "grace@example.org" },
      credit_card_token: "tok_test_1",
    });
  });

  it("shows and sends the fields turned on; a required one is asked at its step, its error beside it", async () => {
    const proxy = stubProxy();
    const { widget } = await renderDonate({ fields: "phone:required, address,memo" });
    await nextStep(widget);
    const phone = widget.getByLabelText("Phone");
    expect(widget.getByLabelText("Street address (optional)")).toBeTruthy();
    expect(widget.getByLabelText("Message (optional)")).toBeTruthy();
    expect(widget.queryByRole("checkbox", { name: /Text me/ })).toBeNull();

    fillDonor(widget);
    fireEvent.click(widget.getByRole("button", { name: "Next" }));
    await waitFor(() => expect(document.activeElement).toBe(phone));
    expect(phone.getAttribute("aria-invalid")).toBe("true");
    expect(errorOf(phone)).toBe("Fill in this field.");
    expect(widget.getByRole("heading", { name: "Step 2 of 3: About you" })).toBeTruthy();

    type(phone, "(555) 010-1234");
    type(widget.getByLabelText("Street address (optional)"), "1 Main St");
    type(widget.getByLabelText("ZIP code (optional)"), "62701");
    frame().cardComplete();
    fireEvent.click(await reach(widget, "Donate $25.00"));
    await widget.findByRole("heading", { name: "Thank you!" });
    expect(proxy.donationCalls()[0]!.body).toMatchObject({
      donor: {
        phone: "(555) 010-1234",
        street_address: "1 Main St",
        country: "US",
        zip: "62701",
      },
    });
    expect(proxy.donationCalls()[0]!.body).not.toHaveProperty("sms_opt_in_accepted");
  });

  it("asks for the whole address when it is required", async () => {
    stubProxy();
    const { widget } = await renderDonate({ fields: "address:required", layout: "single" });
    fillDonor(widget);
    frame().cardComplete();
    fireEvent.click(widget.getByRole("button", { name: "Donate $25.00" }));
    const street = widget.getByLabelText("Street address");
    await waitFor(() => expect(document.activeElement).toBe(street));
    expect(errorOf(street)).toBe("Fill in this field.");
    expect(errorOf(widget.getByLabelText("City"))).toBe("Fill in this field.");
    expect(errorOf(widget.getByLabelText("ZIP code"))).toBe("Fill in this field.");
    expect(widget.getByLabelText("State or province (optional)")).toBeTruthy();
  });

  it("leaves out an entry that names no field, naming it in the console, and shows the rest; a check box is never required", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    stubProxy();
    const { widget } = await renderDonate({ fields: "adress,phone,sms:required", layout: "single" });
    expect(warn).toHaveBeenCalledOnce();
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^\[givekit\] .*"adress" in "fields"/));
    expect(widget.getByLabelText("Phone (optional)")).toBeTruthy();
    expect(widget.getByRole("checkbox", { name: /Text me/ })).toHaveProperty("checked", false);
    expect(widget.queryByLabelText(/^Street address/)).toBeNull();
  });
});

describe("the message (`memo`)", () => {
  it("is as long as the proxy counts it: 500 characters, an emoji one; at Next, one more is refused", async () => {
    stubProxy();
    const { widget } = await renderDonate({ fields: "memo" });
    await nextStep(widget);
    fillDonor(widget);
    const memo = widget.getByLabelText("Message (optional)");
    type(memo, "🌻".repeat(MEMO_MAX + 1));
    fireEvent.click(widget.getByRole("button", { name: "Next" }));
    await waitFor(() => expect(memo.getAttribute("aria-invalid")).toBe("true"));
    expect(errorOf(memo)).toBe(`Keep the message under ${MEMO_MAX} characters.`);
    // 500 emoji are 1,000 UTF-16 units, and within the limit.
    type(memo, "🌻".repeat(MEMO_MAX));
    await nextStep(widget);
  });
});

describe("the SMS box, an opt-in like <givekit-optin>", () => {
  it("shows its disclosure word for word, unticked; a ticked box sends that very text with the number", async () => {
    const proxy = stubProxy();
    const { widget } = await renderDonate({ fields: "sms", layout: "single" });
    const box = widget.getByRole("checkbox", { name: "Text me updates from Hope Shelter Alerts" });
    expect(box).toHaveProperty("checked", false);
    const disclosure = document.getElementById(box.getAttribute("aria-describedby")!)!;
    expect(within(disclosure).getByRole("link", { name: "Terms" }).getAttribute("href")).toBe(
      "https://hope.example.org/sms-terms",
    );
    fillDonor(widget);
    fireEvent.click(box);
    type(widget.getByLabelText(/^Phone/), "(415) 555-0132");
    frame().cardComplete();
    fireEvent.click(widget.getByRole("button", { name: "Donate $25.00" }));
    await widget.findByRole("heading", { name: "Thank you!" });
    expect(proxy.donationCalls()[0]!.body).toMatchObject({
      sms_opt_in_accepted: true,
      sms_consent_text: disclosure.textContent,
      donor: { phone: "(415) 555-0132" },
    });
  });

  it("without program-name, terms-url or privacy-url is left out, and the console says why", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    stubProxy();
    const { widget } = await renderDonate({ fields: "sms,memo", "terms-url": "", layout: "single" });
    expect(widget.queryByRole("checkbox", { name: /Text me/ })).toBeNull();
    expect(widget.getByLabelText(/^Message/)).toBeTruthy();
    expect(warn).toHaveBeenCalledWith(
      expect.stringMatching(/^\[givekit\] .*fields="sms" needs program-name, terms-url and privacy-url/),
    );
  });
});

describe("the form in steps", () => {
  it("asks the amount, then the donor, then the card, saying which step of three", async () => {
    stubProxy();
    const { widget } = await renderDonate();
    const first = widget.getByRole("heading", { name: "Step 1 of 3: Your gift" });
    expect(widget.getByRole("group", { name: "Amount" })).toBeTruthy();
    expect(widget.queryByRole("textbox", { name: "First name" })).toBeNull();
    expect(widget.queryByRole("button", { name: "Back" })).toBeNull();
    expect(document.activeElement).not.toBe(first);

    // Going on, the step's first field takes the focus and the step is read out.
    fireEvent.click(widget.getByRole("radio", { name: "$50" }));
    await nextStep(widget);
    expect(widget.getByRole("heading", { name: "Step 2 of 3: About you" })).toBeTruthy();
    await waitFor(() =>
      expect(document.activeElement).toBe(widget.getByRole("textbox", { name: "First name" })),
    );
    expect(widget.getByRole("status").textContent).toBe("Step 2 of 3: About you");
    expect(widget.queryByRole("group", { name: "Amount" })).toBeNull();

    // The card's first field, in the frame, once the frame has loaded; Back comes after Donate.
    frame().send({ type: "givekit:frame-ready" });
    fillDonor(widget);
    await nextStep(widget);
    expect(widget.getByRole("heading", { name: "Step 3 of 3: Payment" })).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(widget.getByTitle("Card details")));
    expect(frame().posted.map((entry) => entry.message.type)).toContain("givekit:start");
    expect(widget.getByRole("status").textContent).toBe("Step 3 of 3: Payment");
    const buttons = widget.getAllByRole("button").map((button) => button.textContent);
    expect(buttons.slice(-2)).toEqual(["Donate $50.00", "Back"]);
    expect(widget.getByRole("group", { name: "Card" })).toBeTruthy();
  });

  it("a card frame that has not loaded yet leaves the focus on the card step's heading", async () => {
    stubProxy();
    const { widget } = await renderDonate();
    await nextStep(widget);
    fillDonor(widget);
    await nextStep(widget);
    await waitFor(() =>
      expect(document.activeElement).toBe(widget.getByRole("heading", { name: "Step 3 of 3: Payment" })),
    );
    expect(frame().posted.map((entry) => entry.message.type)).not.toContain("givekit:start");
  });

  it("goes Back without losing anything, and keeps the one card frame all along", async () => {
    stubProxy();
    const { widget } = await renderDonate();
    const cardFrame = widget.getByTitle("Card details");
    fireEvent.click(widget.getByRole("radio", { name: "Other" }));
    type(widget.getByLabelText("Other amount"), "40");
    await nextStep(widget);
    fillDonor(widget);
    type(widget.getByLabelText("Phone (optional)"), "(555) 010-1234");
    fireEvent.click(widget.getByRole("checkbox", { name: "Show my gift on the pledge wall" }));
    await nextStep(widget);
    expect(widget.getByTitle("Card details")).toBe(cardFrame);

    fireEvent.click(widget.getByRole("button", { name: "Back" }));
    await waitFor(() =>
      expect(document.activeElement).toBe(widget.getByRole("heading", { name: "Step 2 of 3: About you" })),
    );
    expect(widget.getByRole("textbox", { name: "Last name" })).toHaveProperty("value", "Hopper");
    expect(widget.getByRole("textbox", { name: "Phone (optional)" })).toHaveProperty(
      "value",
      "(555) 010-1234",
    );
    expect(widget.getByRole("checkbox", { name: "Show my gift on the pledge wall" })).toHaveProperty(
      "checked",
      true,
    );
    fireEvent.click(widget.getByRole("button", { name: "Back" }));
    await waitFor(() =>
      expect(document.activeElement).toBe(widget.getByRole("heading", { name: "Step 1 of 3: Your gift" })),
    );
    expect(widget.getByRole("textbox", { name: "Other amount" })).toHaveProperty("value", "40");

    expect(await reach(widget, "Donate $40.00")).toBeTruthy();
    expect(widget.getByTitle("Card details")).toBe(cardFrame);
    expect(cardFrame.closest("[hidden]")).toBeNull();
  });

  it("moves on with Enter, and stops at a step with an empty required field, its error beside it", async () => {
    stubProxy();
    const { widget, events } = await renderDonate();
    const form = widget.getByRole("form");
    // Enter in a field submits the form: on a step before the last, that is Next.
    fireEvent.submit(form);
    const first = await widget.findByRole("textbox", { name: "First name" });
    await waitFor(() => expect(document.activeElement).toBe(first));
    const email = widget.getByLabelText("E-mail");
    email.focus();
    type(email, "grace@example.org");
    fireEvent.submit(form);
    await waitFor(() => expect(document.activeElement).toBe(first));
    expect(errorOf(first)).toBe("Enter your first name.");
    expect(errorOf(widget.getByRole("textbox", { name: "Last name" }))).toBe("Enter your last name.");
    expect(widget.getByText("Please fix 2 fields.")).toBeTruthy();
    expect(widget.getByRole("heading", { name: "Step 2 of 3: About you" })).toBeTruthy();
    expect(events.at(-1)).toEqual({ type: "givekit:error", detail: { code: "validation_failed" } });
  });

  it("charges once for a double click on Donate", async () => {
    const proxy = stubProxy({ donations: [success()] });
    const { widget } = await renderDonate();
    fillDonor(widget);
    frame().cardComplete();
    const donate = await reach(widget, "Donate $25.00");
    fireEvent.click(donate);
    fireEvent.click(donate);
    await widget.findByRole("heading", { name: "Thank you!" });
    expect(proxy.donationCalls()).toHaveLength(1);
    expect(frame().tokenizeRequests()).toHaveLength(1);
  });

  it("takes the donor back to the step of a field the proxy refuses", async () => {
    stubProxy({
      donations: [
        {
          status: 400,
          body: {
            type: "about:blank",
            title: "x",
            status: 400,
            code: "validation_failed",
            errors: { "donor.email": ["Enter an e-mail address such as name@example.org."] },
          },
        },
      ],
    });
    const { widget } = await renderDonate();
    fillDonor(widget);
    frame().cardComplete();
    fireEvent.click(await reach(widget, "Donate $25.00"));
    const email = await widget.findByRole("textbox", { name: "E-mail" });
    await waitFor(() => expect(document.activeElement).toBe(email));
    expect(email.getAttribute("aria-invalid")).toBe("true");
  });
});

describe('layout="single"', () => {
  it("shows the whole form on one page, with no steps", async () => {
    stubProxy();
    const { widget } = await renderDonate({ layout: "single" });
    expect(widget.queryByRole("heading", { level: 3 })).toBeNull();
    expect(widget.queryByRole("button", { name: "Next" })).toBeNull();
    expect(widget.getByRole("group", { name: "Amount" })).toBeTruthy();
    expect(widget.getByRole("textbox", { name: "First name" })).toBeTruthy();
    expect(within(widget.getByRole("form")).getByRole("button", { name: "Donate $25.00" })).toBeTruthy();
  });
});
