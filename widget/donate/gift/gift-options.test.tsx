import { fireEvent, waitFor, within } from "@testing-library/preact";
import { describe, expect, it } from "vitest";
import {
  fillDonor,
  reach,
  renderDonate,
  stubProxy,
  success,
  useFakeCardFrame,
} from "../../../test/helpers/donate-harness";

const frame = useFakeCardFrame();

type Widget = Awaited<ReturnType<typeof renderDonate>>["widget"];

/** Fills in the donor and the card, and presses Donate; the proxy's request body. */
async function donate(widget: Widget, proxy: ReturnType<typeof stubProxy>, button: RegExp) {
  fillDonor(widget, frame());
  fireEvent.click(await reach(widget, button));
  await widget.findByRole("heading", { name: "Thank you!" });
  return proxy.donationCalls()[0]!.body as Record<string, unknown>;
}

describe("cover-fee", () => {
  it("optional (the default): an unticked box naming the fee", async () => {
    stubProxy();
    const { widget } = await renderDonate({ fields: "", layout: "single" });
    const box = widget.getByRole("checkbox", { name: "Add $0.75 to cover the processing fee" });
    expect(box).toHaveProperty("checked", false);
    expect(widget.getByRole("button", { name: "Donate $25.00" })).toBeTruthy();
  });

  it("preselected: the box ticked and the fee in the total; unticked, it goes", async () => {
    const proxy = stubProxy({ donations: [success("25.00")] });
    const { widget } = await renderDonate({ fields: "", layout: "single", "cover-fee": "preselected" });
    const box = widget.getByRole("checkbox", { name: "Add $0.75 to cover the processing fee" });
    expect(box).toHaveProperty("checked", true);
    expect(widget.getByRole("button", { name: "Donate $25.75" })).toBeTruthy();
    fireEvent.click(box);
    const body = await donate(widget, proxy, /^Donate \$25\.00$/);
    expect(body.cover_fee).toBe(false);
  });

  it("required: no box, the fee said and in the total, always sent", async () => {
    const proxy = stubProxy({ donations: [success("25.75", "0.75")] });
    const { widget } = await renderDonate({ fields: "", layout: "single", "cover-fee": "required" });
    expect(widget.queryByRole("checkbox", { name: /processing fee/ })).toBeNull();
    expect(widget.getByText("Includes $0.75 to cover the processing fee.")).toBeTruthy();
    const body = await donate(widget, proxy, /^Donate \$25\.75$/);
    expect(body.cover_fee).toBe(true);
  });

  it("off: no fee anywhere", async () => {
    const proxy = stubProxy();
    const { widget } = await renderDonate({ fields: "", layout: "single", "cover-fee": "off" });
    expect(widget.queryByText(/processing fee/)).toBeNull();
    const body = await donate(widget, proxy, /^Donate \$25\.00$/);
    expect(body.cover_fee).toBe(false);
  });
});

describe("monthly-prompt", () => {
  it("off by default: choosing an amount offers nothing", async () => {
    stubProxy();
    const { widget } = await renderDonate({ fields: "" });
    fireEvent.click(widget.getByRole("radio", { name: "$100" }));
    expect(widget.queryByRole("group", { name: /a month instead/ })).toBeNull();
  });

  it("after a one-time amount is chosen, one tap makes it monthly at the suggested amount, focus on the amount", async () => {
    const proxy = stubProxy({ donations: [success("34.00")] });
    const { widget } = await renderDonate({ fields: "", layout: "single", "monthly-prompt": "" });
    expect(widget.queryByRole("group", { name: /a month instead/ })).toBeNull();
    fireEvent.click(widget.getByRole("radio", { name: "$100" }));
    const prompt = await widget.findByRole("group", { name: /Make it \$34 a month instead\?/ });
    fireEvent.click(within(prompt).getByRole("button", { name: "Yes, $34 monthly" }));
    await waitFor(() => expect(widget.queryByRole("group", { name: /a month instead/ })).toBeNull());
    expect(widget.getByRole("radio", { name: "Monthly" })).toHaveProperty("checked", true);
    const other = widget.getByLabelText("Other amount");
    expect(other).toHaveProperty("value", "34.00");
    await waitFor(() => expect(document.activeElement === other || other.matches(":focus")).toBe(true));
    const body = await donate(widget, proxy, /^Donate \$34\.00 monthly$/);
    expect(body).toMatchObject({ amount: "34.00", recurring_frequency: "monthly" });
  });

  it("declined in one tap: the one-time gift as chosen, and no second offer", async () => {
    const proxy = stubProxy({ donations: [success("100.00")] });
    const { widget } = await renderDonate({ fields: "", layout: "single", "monthly-prompt": "20" });
    fireEvent.click(widget.getByRole("radio", { name: "$100" }));
    fireEvent.click(await widget.findByRole("button", { name: "No, give $100 once" }));
    await waitFor(() => expect(widget.queryByRole("group", { name: /a month instead/ })).toBeNull());
    fireEvent.click(widget.getByRole("radio", { name: "$50" }));
    expect(widget.queryByRole("group", { name: /a month instead/ })).toBeNull();
    const body = await donate(widget, proxy, /^Donate \$50\.00$/);
    expect(body.amount).toBe("50.00");
    expect(body.recurring_frequency).toBeUndefined();
  });

  it("never blocks the one-time gift: Donate with the offer unanswered gives once", async () => {
    const proxy = stubProxy({ donations: [success("250.00")] });
    const { widget } = await renderDonate({ fields: "", layout: "single", "monthly-prompt": "" });
    fireEvent.click(widget.getByRole("radio", { name: "$250" }));
    await widget.findByRole("group", { name: /Make it \$84 a month instead\?/ });
    const body = await donate(widget, proxy, /^Donate \$250\.00$/);
    expect(body.amount).toBe("250.00");
    expect(body.recurring_frequency).toBeUndefined();
  });
});
