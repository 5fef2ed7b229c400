import { fireEvent, waitFor, within } from "@testing-library/preact";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { defineDonateElement } from "./element";
import {
  problem,
  stubProxy,
  success,
  expectSwitchToFrench,
  useFakeCardFrame,
} from "../../test/helpers/donate-harness";

const frame = useFakeCardFrame();

beforeEach(() => {
  defineDonateElement();
});

function place(html: string) {
  document.body.innerHTML = html;
  const element = document.body.firstElementChild as HTMLElement;
  return { element, shadow: within(element.shadowRoot as unknown as HTMLElement) };
}

describe("<givekit-donate>", () => {
  it("renders its form in an open shadow root with adopted styles, and says it is ready", async () => {
    stubProxy();
    const ready = vi.fn<(event: Event) => void>();
    document.addEventListener("givekit:ready", ready);
    const { element, shadow } = place(
      '<givekit-donate proxy="https://give.example.org" shortcode="71777" keyword="HOPE"></givekit-donate>',
    );
    expect(await shadow.findByRole("button", { name: "Next" })).toBeTruthy();
    expect(
      element.shadowRoot!.adoptedStyleSheets.length + element.shadowRoot!.querySelectorAll("style").length,
    ).toBe(1);
    await waitFor(() => expect(ready).toHaveBeenCalledTimes(1));
    expect(ready.mock.calls[0]![0]).toMatchObject({
      detail: { widget: "donate" },
      bubbles: true,
      composed: true,
    });
    document.removeEventListener("givekit:ready", ready);
  });

  it.each([
    ["default-amount", "25,abc"],
    ["keyword", "NO SPACES ALLOWED"],
    ["frequencies", "once,weekly"],
    ["default-frequency", "quarterly"],
    ["fundraiser", "1 OR 1=1"],
    ["terms-url", "javascript:alert(1)"],
    ["proxy", "ftp://give.example.org"],
  ])('refuses %s="%s", naming the attribute, and shows a polite fallback', (name, value) => {
    const fetchStub = vi.fn<typeof fetch>();
    vi.stubGlobal("fetch", fetchStub);
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const attributes: Record<string, string> = {
      proxy: "https://give.example.org",
      shortcode: "71777",
      keyword: "HOPE",
      [name]: value,
    };
    const element = document.createElement("givekit-donate");
    for (const [attribute, text] of Object.entries(attributes)) element.setAttribute(attribute, text);
    document.body.append(element);
    const shadow = within(element.shadowRoot as unknown as HTMLElement);
    expect(error).toHaveBeenCalledWith(
      expect.stringMatching(new RegExp(`^\\[givekit\\] <givekit-donate>: .*"${name}"`)),
    );
    expect(shadow.getByRole("note").textContent).toMatch(/not available right now/);
    expect(shadow.queryByRole("button")).toBeNull();
    expect(fetchStub).not.toHaveBeenCalled();
  });

  it('speaks another language when locale="xx" is one givekit does not speak, saying so once', async () => {
    stubProxy();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    document.documentElement.lang = "vi-VN";
    try {
      const { element, shadow } = place(
        '<givekit-donate proxy="https://give.example.org" shortcode="71777" keyword="HOPE" locale="xx"></givekit-donate>',
      );
      // The next rule, the page's language: a Vietnamese form, not an empty one.
      expect(await shadow.findByRole("button", { name: "Tiếp" })).toBeTruthy();
      const root = shadow.getByRole("heading", { level: 2 }).closest("[lang]")!;
      expect([root.getAttribute("lang"), root.getAttribute("dir")]).toEqual(["vi", "ltr"]);
      element.setAttribute("heading", "Give");
      await shadow.findByRole("heading", { name: "Give" });
      expect(warn.mock.calls.filter(([text]) => String(text).includes('locale names "xx"'))).toHaveLength(1);
    } finally {
      document.documentElement.lang = "";
    }
  });

  it('speaks Arabic right to left, its root dir="rtl", for locale="ar-EG"', async () => {
    stubProxy();
    const { shadow } = place(
      '<givekit-donate proxy="https://give.example.org" shortcode="71777" keyword="HOPE" locale="ar-EG"></givekit-donate>',
    );
    expect(await shadow.findByRole("button", { name: "التالي" })).toBeTruthy();
    const root = shadow.getByRole("heading", { level: 2 }).closest("[lang]")!;
    expect([root.getAttribute("lang"), root.getAttribute("dir")]).toEqual(["ar", "rtl"]);
  });

  it("switches language mid-form (locales) keeping what the donor typed", async () => {
    stubProxy();
    const { element, shadow } = place(
      '<givekit-donate proxy="https://give.example.org" shortcode="71777" keyword="HOPE" locales="en,fr,ko"></givekit-donate>',
    );
    fireEvent.click(await shadow.findByRole("radio", { name: "Other" }));
    fireEvent.input(shadow.getByRole("textbox", { name: "Other amount" }), { target: { value: "42" } });
    await expectSwitchToFrench(element, shadow);
    expect((shadow.getByRole("textbox", { name: "Autre montant" }) as HTMLInputElement).value).toBe("42");
    expect(shadow.getByRole("combobox", { name: "Langue" })).toBeTruthy();
  });

  it("asks for a campaign when none is named", () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    place('<givekit-donate proxy="https://give.example.org" shortcode="71777"></givekit-donate>');
    expect(error).toHaveBeenCalledWith(expect.stringContaining('the "keyword" attribute is required'));
  });

  it("shows the fallback and reports an error when the proxy does not serve the campaign", async () => {
    stubProxy({ campaign: problem(404, "campaign_not_served") });
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const failed = vi.fn<(event: Event) => void>();
    document.addEventListener("givekit:error", failed);
    const { shadow } = place(
      '<givekit-donate proxy="https://give.example.org" shortcode="71777" keyword="GONE"></givekit-donate>',
    );
    expect((await shadow.findByRole("note")).textContent).toMatch(/not available right now/);
    expect(error).toHaveBeenCalledWith(
      expect.stringContaining("[givekit] <givekit-donate>: the campaign could not be loaded"),
    );
    await waitFor(() => expect(failed).toHaveBeenCalled());
    expect(failed.mock.calls[0]![0]).toMatchObject({ detail: { code: "campaign_not_served" } });
    document.removeEventListener("givekit:error", failed);
  });

  it("says its language on its content, so a Spanish form on an English page is read in Spanish", async () => {
    stubProxy();
    const { element, shadow } = place(
      '<givekit-donate proxy="https://give.example.org" shortcode="71777" keyword="HOPE" locale="es-MX"></givekit-donate>',
    );
    await shadow.findByRole("button", { name: "Siguiente" });
    expect(shadow.getByRole("heading", { level: 2 }).closest("[lang]")?.getAttribute("lang")).toBe("es");
    element.setAttribute("locale", "en");
    await shadow.findByRole("button", { name: "Next" });
    expect(shadow.getByRole("heading", { level: 2 }).closest("[lang]")?.getAttribute("lang")).toBe("en");
  });

  it("follows a changed attribute", async () => {
    stubProxy();
    const { element, shadow } = place(
      '<givekit-donate proxy="https://give.example.org" shortcode="71777" keyword="HOPE"></givekit-donate>',
    );
    await shadow.findByRole("button", { name: "Next" });
    element.setAttribute("heading", "Walk with us");
    expect(await shadow.findByRole("heading", { name: "Walk with us" })).toBeTruthy();
  });

  it("is busy from Donate until the proxy answers, and only then", async () => {
    let answer!: (value: ReturnType<typeof success>) => void;
    const held = new Promise<ReturnType<typeof success>>((resolve) => (answer = resolve));
    const proxy = stubProxy({ donations: [held] });
    const { element, shadow } = place(
      '<givekit-donate proxy="https://give.example.org" shortcode="71777" keyword="HOPE" layout="single"></givekit-donate>',
    );
    const donate = (await shadow.findByRole("button", { name: "Donate $25.00" })) as HTMLButtonElement;
    const busy = () => (element as HTMLElement & { busy: boolean }).busy;
    expect(busy()).toBe(false);
    for (const [label, value] of [
      ["First name", "Grace"],
      ["Last name", "Hopper"],
      ["E-mail", "grace@example.org"],
    ])
      fireEvent.input(shadow.getByLabelText(label!), { target: { value } });
    frame().cardComplete();
    fireEvent.click(donate);
    await waitFor(() => expect(proxy.donationCalls()).toHaveLength(1));
    expect(busy()).toBe(true);
    answer(success());
    await shadow.findByRole("heading", { name: "Thank you!" });
    expect(busy()).toBe(false);
  });
});
