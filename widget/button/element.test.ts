// <givekit-button>: a button that opens the donate form in a modal dialog, the form made on the first open.
import { fireEvent, waitFor, within } from "@testing-library/preact";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { defineDonateElement } from "../donate/element";
import { installFakeCardFrame, PROXY, stubProxy, success } from "../../test/helpers/donate-harness";
import { defineButtonElement } from "./element";

const need = vi.fn<(tag: string, locale?: string | null) => void>();
let frame: ReturnType<typeof installFakeCardFrame>;

beforeAll(() => {
  defineButtonElement(need);
  defineDonateElement();
});
beforeEach(() => {
  frame = installFakeCardFrame();
});
afterEach(() => {
  document.body.replaceChildren();
  frame.restore();
  need.mockClear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function place(attributes: Record<string, string>) {
  const element = document.createElement("givekit-button");
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  document.body.append(element);
  const shadow = element.shadowRoot!;
  return {
    element,
    shadow,
    button: shadow.querySelector<HTMLButtonElement>('[part="button"]')!,
    dialog: shadow.querySelector<HTMLDialogElement>('[part="dialog"]')!,
    close: shadow.querySelector<HTMLButtonElement>('[part="close"]')!,
    form: () => shadow.querySelector("givekit-donate"),
  };
}

const HOPE = { proxy: PROXY, shortcode: "71777", keyword: "HOPE" };

describe("<givekit-button>", () => {
  it("is a button named by the catalog in its language, or by its label", () => {
    expect(place(HOPE).button.textContent).toBe("Donate");
    expect(place({ ...HOPE, locale: "es" }).button.textContent).toBe("Donar");
    const { element, button, dialog, close } = place({ ...HOPE, label: "Give today" });
    expect(button.textContent).toBe("Give today");
    expect(button.type).toBe("button");
    expect(button.getAttribute("aria-haspopup")).toBe("dialog");
    expect(dialog.getAttribute("aria-label")).toBe("Give today");
    expect(close.getAttribute("aria-label")).toBe("Close");
    element.setAttribute("label", "Donate now");
    expect(button.textContent).toBe("Donate now");
    element.removeAttribute("label");
    expect(button.textContent).toBe("Donate");
  });

  it("makes no form, and asks the proxy nothing, before it is opened", () => {
    const fetchStub = vi.fn<typeof fetch>();
    vi.stubGlobal("fetch", fetchStub);
    const { dialog, form } = place(HOPE);
    expect(dialog.open).toBe(false);
    expect(form()).toBeNull();
    expect(fetchStub).not.toHaveBeenCalled();
    expect(need).not.toHaveBeenCalled();
  });

  it("asks for the form's code as the donor reaches for it: pointer over, focus, click", () => {
    stubProxy();
    const { button } = place({ ...HOPE, locale: "es" });
    fireEvent.pointerEnter(button);
    fireEvent.focus(button);
    expect(need).toHaveBeenCalledWith("givekit-donate", "es");
    need.mockClear();
    fireEvent.click(button);
    expect(need).toHaveBeenCalledWith("givekit-donate", "es");
  });

  it("opens a modal dialog holding a form with every attribute but its label, and keeps them in step", async () => {
    stubProxy();
    const { element, button, dialog, form } = place({
      ...HOPE,
      label: "Give today",
      amounts: "10,20,40",
      fields: "phone",
      "data-layer": "",
      "success-url": `${location.origin}/thanks`,
    });
    const showModal = vi.spyOn(dialog, "showModal");
    fireEvent.click(button);
    expect(showModal).toHaveBeenCalledTimes(1);
    expect(dialog.open).toBe(true);
    const donate = form()!;
    expect(donate.parentElement).toBe(dialog);
    expect(Object.fromEntries([...donate.attributes].map((a) => [a.name, a.value]))).toEqual({
      proxy: PROXY,
      shortcode: "71777",
      keyword: "HOPE",
      amounts: "10,20,40",
      fields: "phone",
      "data-layer": "",
      "success-url": `${location.origin}/thanks`,
    });
    expect(
      await within(donate.shadowRoot as unknown as HTMLElement).findByRole("radio", { name: "$40" }),
    ).toBeTruthy();
    element.setAttribute("amounts", "15,30");
    element.removeAttribute("fields");
    element.setAttribute("heading", "Walk with us");
    expect(donate.getAttribute("amounts")).toBe("15,30");
    expect(donate.hasAttribute("fields")).toBe(false);
    expect(donate.getAttribute("heading")).toBe("Walk with us");
    // Closed and opened again: the same form, as the donor left it.
    dialog.close();
    fireEvent.click(button);
    expect(dialog.querySelectorAll("givekit-donate")).toHaveLength(1);
    expect(form()).toBe(donate);
  });

  it("closes by its close button or Escape, and gives the focus back to the button", async () => {
    stubProxy();
    const { shadow, button, dialog, close } = place(HOPE);
    fireEvent.click(button);
    fireEvent.click(close);
    await waitFor(() => expect(dialog.open).toBe(false));
    await waitFor(() => expect(shadow.activeElement).toBe(button));
    fireEvent.click(button);
    const cancel = new Event("cancel", { cancelable: true });
    dialog.dispatchEvent(cancel);
    expect(cancel.defaultPrevented).toBe(false);
  });

  it("does not close while a donation is in flight, by Escape or its close button", async () => {
    let answer!: (value: ReturnType<typeof success>) => void;
    const held = new Promise<ReturnType<typeof success>>((resolve) => (answer = resolve));
    const proxy = stubProxy({ donations: [held] });
    const { shadow, button, dialog, close, form } = place({ ...HOPE, layout: "single" });
    fireEvent.click(button);
    const donate = within(form()!.shadowRoot as unknown as HTMLElement);
    const give = await donate.findByRole("button", { name: "Donate $25.00" });
    for (const [label, value] of [
      ["First name", "Grace"],
      ["Last name", "Hopper"],
      ["E-mail", "grace@example.org"],
    ])
      fireEvent.input(donate.getByLabelText(label!), { target: { value } });
    frame.cardComplete();
    fireEvent.click(give);
    await waitFor(() => expect(proxy.donationCalls()).toHaveLength(1));

    const escape = new Event("cancel", { cancelable: true });
    dialog.dispatchEvent(escape);
    expect(escape.defaultPrevented).toBe(true);
    fireEvent.click(close);
    expect(dialog.open).toBe(true);
    // Closed all the same (a browser does on a second Escape): it opens again at once.
    dialog.close();
    await waitFor(() => expect(dialog.open).toBe(true));

    answer(success());
    await donate.findByRole("heading", { name: "Thank you!" });
    fireEvent.click(close);
    await waitFor(() => expect(dialog.open).toBe(false));
    await waitFor(() => expect(shadow.activeElement).toBe(button));
  });

  it("is defined by defineElements(), with the other elements", async () => {
    const { defineElements } = await import("../elements");
    defineElements();
    expect(customElements.get("givekit-button")).toBeTypeOf("function");
  });
});
