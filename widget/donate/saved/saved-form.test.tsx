import { fireEvent, waitFor, within } from "@testing-library/preact";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { defineDonateElement } from "../element";
import {
  HOPE,
  problem,
  stubProxy,
  expectSwitchToFrench,
  useFakeCardFrame,
} from "../../../test/helpers/donate-harness";
import { FORM_REFRESH_MS } from "./follow";
import { rest } from "../rest";

useFakeCardFrame();
beforeEach(() => defineDonateElement());
afterEach(() => vi.useRealTimers());

const savedAnswer = (
  version: number,
  attributes: Record<string, string>,
  theme: Record<string, string> = {},
) => ({
  status: 200,
  body: { ...HOPE, form: { name: "year-end", version, attributes, theme } },
});

function place(attributes = "") {
  document.body.innerHTML = `<givekit-donate proxy="https://give.example.org" shortcode="71777" keyword="HOPE" form="year-end"${attributes}></givekit-donate>`;
  const element = document.body.firstElementChild as HTMLElement;
  return { element, shadow: within(element.shadowRoot as unknown as HTMLElement) };
}

describe('<givekit-donate form="…">', () => {
  it("takes the saved design and theme from the campaign's answer, in the one request the form makes", async () => {
    const { calls } = stubProxy({
      campaign: savedAnswer(
        1,
        { amounts: "50,100,250", "default-amount": "100", heading: "Year-end appeal" },
        { accent: "#0b5394" },
      ),
    });
    const { element, shadow } = place();
    expect(await shadow.findByRole("heading", { name: "Year-end appeal" })).toBeTruthy();
    expect(await shadow.findByRole("radio", { name: "$100" })).toHaveProperty("checked", true);
    expect(shadow.getByRole("radio", { name: "$250" })).toBeTruthy();
    expect(shadow.queryByRole("radio", { name: "$25" })).toBeNull();
    const campaignCalls = calls.filter((call) => call.url.includes("/v1/campaigns/71777/HOPE"));
    expect(campaignCalls.map((call) => call.url)).toEqual([
      "https://give.example.org/v1/campaigns/71777/HOPE?form=year-end",
    ]);
    const sheets = element.shadowRoot!.adoptedStyleSheets;
    expect([...sheets.at(-1)!.cssRules].map((rule) => rule.cssText).join()).toMatch(
      /--givekit-accent:\s*#0b5394/,
    );
  });

  it("an attribute on the element wins over the same one saved", async () => {
    stubProxy({ campaign: savedAnswer(1, { amounts: "50,100,250", heading: "Year-end appeal" }) });
    const { shadow } = place(' amounts="10,20"');
    expect(await shadow.findByRole("heading", { name: "Year-end appeal" })).toBeTruthy();
    expect(await shadow.findByRole("radio", { name: "$10" })).toBeTruthy();
    expect(shadow.queryByRole("radio", { name: "$50" })).toBeNull();
  });

  it("a saved form in a language not loaded yet speaks it, once its words have come", async () => {
    stubProxy({ campaign: savedAnswer(1, { locale: "fr" }) });
    const { shadow } = place();
    expect(await shadow.findByRole("button", { name: "Suivant" })).toBeTruthy();
    expect(shadow.queryByRole("button", { name: "Next" })).toBeNull();
  });

  it("a saved form's languages to switch between (locales) give the donor the switch, as the attribute does", async () => {
    stubProxy({ campaign: savedAnswer(1, { locales: "en,fr,ko" }) });
    const { element, shadow } = place();
    await expectSwitchToFrench(element, shadow);
  });

  it("a saved form that does not exist: the polite note, and a [givekit] line naming it", async () => {
    stubProxy({ campaign: problem(404, "form_not_found") });
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const { shadow } = place();
    expect((await shadow.findByRole("note")).textContent).toMatch(/not available right now/);
    expect(error).toHaveBeenCalledWith(
      expect.stringMatching(/^\[givekit\] <givekit-donate>: .*form_not_found/),
    );
    expect(shadow.queryByRole("button")).toBeNull();
  });

  it("an open form takes a newer version within a minute, unless the donor has started: then it keeps the one they began", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const answer = savedAnswer(1, { amounts: "25,50" });
    stubProxy({ campaign: answer });
    const first = place();
    expect(await first.shadow.findByRole("radio", { name: "$25" })).toBeTruthy();
    // The follow-up comes with the rest of the form.
    await rest.preload();
    await new Promise((resolve) => setTimeout(resolve, 0));
    Object.assign(answer, savedAnswer(2, { amounts: "50,100,250" }));
    vi.advanceTimersByTime(FORM_REFRESH_MS);
    expect(await first.shadow.findByRole("radio", { name: "$250" })).toBeTruthy();
    expect(FORM_REFRESH_MS).toBeLessThanOrEqual(60_000);

    // A donor who has begun (typed their own amount) keeps the ask they began with.
    Object.assign(answer, savedAnswer(2, { amounts: "25,50" }));
    const second = place();
    expect(await second.shadow.findByRole("radio", { name: "$25" })).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 0));
    fireEvent.click(second.shadow.getByRole("radio", { name: "$50" }));
    fireEvent.pointerDown(second.shadow.getByRole("radio", { name: "$50" }));
    Object.assign(answer, savedAnswer(3, { amounts: "500,1000" }));
    vi.advanceTimersByTime(FORM_REFRESH_MS);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await waitFor(() =>
      expect(second.shadow.getByRole("radio", { name: "$50" })).toHaveProperty("checked", true),
    );
    expect(second.shadow.queryByRole("radio", { name: "$500" })).toBeNull();
  });
});
