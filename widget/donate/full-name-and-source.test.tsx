// One name field (`fields="full-name"`, sent as `full_name`) and the channel tag (`source`), as
// the donor and the proxy meet them.
import { fireEvent, waitFor } from "@testing-library/preact";
import { describe, expect, it } from "vitest";
import { FULL_NAME_MAX } from "../../contract/patterns";
import { problem, reach, renderDonate, stubProxy, useFakeCardFrame } from "../../test/helpers/donate-harness";

const frame = useFakeCardFrame();

function type(field: HTMLElement, value: string) {
  fireEvent.input(field, { target: { value } });
}

/** The text of the error a field is described by. */
const errorOf = (field: HTMLElement) =>
  document.getElementById(field.getAttribute("aria-describedby")!.split(" ")[0]!)?.textContent;

describe('one name field (fields="full-name")', () => {
  it("asks one labelled field instead of first and last, and sends it as full_name", async () => {
    const proxy = stubProxy();
    const { widget } = await renderDonate({ fields: "full-name", layout: "single" });
    const name = widget.getByLabelText("Full name");
    expect(name.getAttribute("autocomplete")).toBe("name");
    expect(name.getAttribute("maxlength")).toBe(String(FULL_NAME_MAX));
    expect(widget.queryByLabelText("First name")).toBeNull();
    expect(widget.queryByLabelText("Last name")).toBeNull();

    type(name, "Grace Brewster Hopper");
    type(widget.getByLabelText("E-mail"), "grace@example.org");
    frame().cardComplete();
    fireEvent.click(widget.getByRole("button", { name: "Donate $25.00" }));
    await widget.findByRole("heading", { name: "Thank you!" });
    expect(proxy.donationCalls()[0]!.body).toMatchObject({
      donor: { full_name: "Grace Brewster Hopper", email: "grace@example.org" },
    });
    expect(proxy.donationCalls()[0]!.body).not.toHaveProperty("donor.first_name");
  });

  it("left empty (or blank), it is the one field named, and nothing is sent", async () => {
    const proxy = stubProxy();
    const { widget } = await renderDonate({ fields: "full-name", layout: "single" });
    const name = widget.getByLabelText("Full name");
    type(name, "   ");
    type(widget.getByLabelText("E-mail"), "grace@example.org");
    frame().cardComplete();
    fireEvent.click(widget.getByRole("button", { name: "Donate $25.00" }));
    await waitFor(() => expect(document.activeElement).toBe(name));
    expect(name.getAttribute("aria-invalid")).toBe("true");
    expect(errorOf(name)).toBe("Fill in this field.");
    expect(widget.getByText("Please fix 1 field.")).toBeTruthy();
    expect(proxy.donationCalls()).toEqual([]);
  });

  it("the proxy's error about full_name lands on the field", async () => {
    stubProxy({
      donations: [problem(400, "validation_failed", { "donor.full_name": ["Enter your name."] })],
    });
    const { widget } = await renderDonate({ fields: "full-name" });
    fireEvent.click(await reach(widget, "Next"));
    const name = widget.getByLabelText("Full name");
    type(name, "Grace Hopper");
    type(widget.getByLabelText("E-mail"), "grace@example.org");
    frame().cardComplete();
    fireEvent.click(await reach(widget, "Donate $25.00"));
    await waitFor(() => expect(name.getAttribute("aria-invalid")).toBe("true"));
    expect(errorOf(name)).toBe("Check this field.");
  });

  it("in Spanish", async () => {
    stubProxy();
    const { widget } = await renderDonate({ fields: "full-name", layout: "single", locale: "es" });
    expect(widget.getByLabelText("Nombre completo")).toBeTruthy();
  });
});

describe("the channel tag (source)", () => {
  it("is sent with the gift as the element names it", async () => {
    const proxy = stubProxy();
    const { widget } = await renderDonate({ fields: "", layout: "single", source: "spring-gala" });
    type(widget.getByLabelText("First name"), "Grace");
    type(widget.getByLabelText("Last name"), "Hopper");
    type(widget.getByLabelText("E-mail"), "grace@example.org");
    frame().cardComplete();
    fireEvent.click(widget.getByRole("button", { name: "Donate $25.00" }));
    await widget.findByRole("heading", { name: "Thank you!" });
    expect(proxy.donationCalls()[0]!.body).toMatchObject({
      source: "spring-gala",
      donor: { first_name: "Grace", last_name: "Hopper" },
    });
  });
});
