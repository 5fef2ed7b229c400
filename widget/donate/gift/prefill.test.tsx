import { fireEvent, waitFor } from "@testing-library/preact";
import { describe, expect, it, vi } from "vitest";
import {
  useFakeCardFrame,
  reach,
  renderDonate,
  stubProxy,
  success,
} from "../../../test/helpers/donate-harness";

const frame = useFakeCardFrame();

/** Opens the form as a donor following `link` would, on one page. */
async function follow(link: string, attributes: Record<string, string> = {}) {
  history.replaceState(null, "", link);
  const proxy = stubProxy({ donations: [success("100.00")] });
  return { proxy, ...(await renderDonate({ fields: "", layout: "single", ...attributes })) };
}

const checked = (widget: Awaited<ReturnType<typeof follow>>["widget"], group: string) =>
  widget
    .getByRole("group", { name: group })
    .querySelector<HTMLInputElement>("input[type=radio]:checked")
    ?.parentElement?.textContent?.trim();

describe("a link that prefills the gift", () => {
  it("?amount=100&frequency=monthly: the form starts at $100 monthly, and that is what is given", async () => {
    const { widget, proxy } = await follow("/appeal?amount=100&frequency=monthly");
    expect(checked(widget, "Amount")).toBe("$100");
    expect(checked(widget, "How often")).toBe("Monthly");
    fireEvent.input(widget.getByLabelText("First name"), { target: { value: "Ada" } });
    fireEvent.input(widget.getByLabelText("Last name"), { target: { value: "Lovelace" } });
    fireEvent.input(widget.getByLabelText("E-mail"), { target: { value: "ada@example.org" } });
    frame().cardComplete();
    fireEvent.click(await reach(widget, "Donate $100.00 monthly"));
    await widget.findByRole("heading", { name: "Thank you!" });
    expect(proxy.donationCalls()[0]!.body).toMatchObject({
      amount: "100.00",
      recurring_frequency: "monthly",
    });
  });

  it("an amount that is not a preset fills the other amount", async () => {
    const { widget } = await follow("/appeal?amount=40");
    expect(checked(widget, "Amount")).toBe("Other");
    expect(widget.getByLabelText("Other amount")).toHaveProperty("value", "40.00");
  });

  it.each([
    ["/appeal?amount=abc", /the link's amount "abc" is not an amount/],
    ["/appeal?amount=-5", /the link's amount "-5" is not an amount/],
    ["/appeal?frequency=weekly", /the link's frequency "weekly" is not one this form offers/],
    ["/appeal?amount=20000", /the amount 20000\.00 is outside this campaign's range \(5\.00 to 10000\.00\)/],
  ])(
    "%s: ignored with a [givekit] line, the defaults kept, no error shown to the donor",
    async (link, said) => {
      const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
      const { widget, host } = await follow(link);
      await waitFor(() => expect(warn).toHaveBeenCalledWith(expect.stringMatching(said)));
      expect(warn.mock.calls.every(([line]) => String(line).startsWith("[givekit] "))).toBe(true);
      expect(checked(widget, "Amount")).toBe("$25");
      expect(checked(widget, "How often")).toBe("Once");
      expect(widget.queryByRole("alert")).toBeNull();
      expect(host.querySelector("[aria-invalid=true]")).toBeNull();
    },
  );

  it("without a link's values, default-amount and default-frequency prefill as before", async () => {
    const { widget } = await follow("/appeal", { "default-amount": "50", "default-frequency": "monthly" });
    expect(checked(widget, "Amount")).toBe("$50");
    expect(checked(widget, "How often")).toBe("Monthly");
  });
});
