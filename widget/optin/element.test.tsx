import { within } from "@testing-library/preact";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { defineOptinElement } from "./element";

const valid = {
  proxy: "https://proxy.example.org",
  list: "Hope Alerts",
  "program-name": "Hope Shelter",
  "terms-url": "https://hope.example.org/sms-terms",
  "privacy-url": "https://hope.example.org/privacy",
};

function mount(attributes: Record<string, string>) {
  const element = document.createElement("givekit-optin");
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  document.body.append(element);
  return { element, shadow: within(element.shadowRoot as unknown as HTMLElement) };
}

beforeAll(() => defineOptinElement());

afterEach(() => {
  document.body.replaceChildren();
  vi.restoreAllMocks();
});

describe("<givekit-optin> element", () => {
  it("renders the form in its shadow root", () => {
    const { shadow } = mount(valid);
    expect(shadow.getByRole("button", { name: "Subscribe" })).toBeTruthy();
    expect(
      shadow.getByRole("checkbox", { name: "I agree to receive text messages from Hope Shelter." }),
    ).toBeTruthy();
  });

  it("defining twice is harmless", () => {
    expect(() => defineOptinElement()).not.toThrow();
  });

  it.each(["program-name", "terms-url", "privacy-url"])(
    "without %s: logs [givekit] naming it and shows the polite fallback, not the form",
    (name) => {
      const logged = vi.spyOn(console, "error").mockImplementation(() => {});
      const attributes: Record<string, string> = { ...valid };
      delete attributes[name];
      const { shadow } = mount(attributes);
      expect(logged).toHaveBeenCalledWith(expect.stringMatching(new RegExp(`^\\[givekit\\] .*"${name}"`)));
      expect(shadow.getByRole("note").textContent).toMatch(/not available right now/);
      expect(shadow.queryByRole("button")).toBeNull();
      expect(shadow.queryByRole("textbox")).toBeNull();
    },
  );

  it("renders markup in the program name as text", () => {
    const { element, shadow } = mount({ ...valid, "program-name": "<img src=x onerror=alert(1)>Hope" });
    expect(element.shadowRoot!.querySelector("img")).toBeNull();
    expect(shadow.getByRole("checkbox", { name: /<img src=x onerror=alert\(1\)>Hope/ })).toBeTruthy();
  });

  it("switches to Spanish when the locale attribute changes", () => {
    const { element, shadow } = mount(valid);
    element.setAttribute("locale", "es");
    expect(shadow.getByRole("button", { name: "Suscribirme" })).toBeTruthy();
  });
});
