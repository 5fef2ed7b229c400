import { afterEach, describe, expect, it, vi } from "vitest";
import { defineElements, mount } from "./elements";

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.body.innerHTML = "";
});

describe("the JS API", () => {
  it("defineElements() defines every element, and is safe to call twice", () => {
    defineElements();
    defineElements();
    expect(customElements.get("givekit-donate")).toBeTypeOf("function");
    expect(customElements.get("givekit-optin")).toBeTypeOf("function");
    expect(customElements.get("givekit-goal")).toBeTypeOf("function");
  });

  it("mount() places an element in the target, attributes from camelCase and lists", () => {
    vi.stubGlobal(
      "fetch",
      vi.fn<typeof fetch>(() => new Promise<Response>(() => {})),
    );
    document.body.innerHTML = '<div id="give"></div>';
    const element = mount("#give", {
      proxy: "https://give.example.org",
      shortcode: "71777",
      keyword: "HOPE",
      amounts: [10, 20, 40],
      defaultFrequency: "monthly",
      frequencies: ["once", "monthly"],
      anonymous: false,
      heading: undefined,
    });
    expect(element.parentElement?.id).toBe("give");
    expect(element.tagName).toBe("GIVEKIT-DONATE");
    expect(Object.fromEntries([...element.attributes].map((a) => [a.name, a.value]))).toEqual({
      proxy: "https://give.example.org",
      shortcode: "71777",
      keyword: "HOPE",
      amounts: "10,20,40",
      "default-frequency": "monthly",
      frequencies: "once,monthly",
    });
  });

  it("mount() makes an opt-in when asked, and names a missing target", () => {
    vi.stubGlobal(
      "fetch",
      vi.fn<typeof fetch>(() => new Promise<Response>(() => {})),
    );
    vi.spyOn(console, "error").mockImplementation(() => {});
    const target = document.createElement("section");
    document.body.append(target);
    expect(mount(target, { widget: "optin", list: "Hope Alerts" }).tagName).toBe("GIVEKIT-OPTIN");
    expect(mount(target, { widget: "goal", shortcode: "71777", keyword: "HOPE" }).tagName).toBe(
      "GIVEKIT-GOAL",
    );
    expect(() => mount("#nowhere", { keyword: "HOPE" })).toThrow(
      '[givekit] mount(): no element matches "#nowhere".',
    );
  });
});
