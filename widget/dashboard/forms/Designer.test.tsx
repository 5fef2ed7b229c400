import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/preact";
import { afterEach, describe, expect, it } from "vitest";
import { designerWords } from "../i18n";
import { createDesignerModel, type Setup } from "./designer-model";
import { Designer } from "./Designer";

afterEach(cleanup);

const SETUP: Setup = {
  campaigns: [
    {
      shortcode: "71777",
      keyword: "HOPE",
      currency: "USD",
      min_amount: "1.00",
      max_amount: "10000.00",
      recurring_frequencies: ["monthly"],
    },
  ],
  allowed_origins: ["https://example.org"],
  forms: [],
};

describe("the form designer", () => {
  it("speaks Spanish from the dashboard's catalog, the contrast rows too, and says a refused save on the shared status line", async () => {
    const fetcher = (async () =>
      new Response(JSON.stringify({ errors: { "theme.accent": ["contraste 2.10:1"] } }), {
        status: 422,
      })) as unknown as typeof fetch;
    const model = createDesignerModel(SETUP, "https://proxy.example", "token-1", fetcher);
    render(<Designer model={model} t={designerWords("es")} lang="es" />);
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("Formularios");
    expect(screen.getByRole("heading", { level: 2, name: "Vista previa" })).toBeTruthy();
    act(() => model.setTheme("accent", "#7fb2ff"));
    expect(screen.getByText(/^Texto del botón \/ acento: 2\.\d\d:1/)).toBeTruthy();
    await act(() => model.save());
    expect(screen.getByRole("status").textContent).toBe(
      "No se guardó: corrija lo marcado. theme.accent: contraste 2.10:1",
    );
  });

  it("switches to the opt-in: its own controls, its snippet with its attributes written out, a bad link named, and no save", () => {
    const model = createDesignerModel(SETUP, "https://proxy.example", "token-1");
    render(<Designer model={model} t={designerWords("en")} lang="en" />);
    expect(screen.getByLabelText(/^Amounts/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Element"), { target: { value: "optin" } });
    // The form's controls give way to the opt-in's; the theme's stay.
    expect(screen.queryByLabelText(/^Amounts/)).toBeNull();
    expect(screen.queryByLabelText(/^Name \(the form/)).toBeNull();
    expect(screen.getByRole("textbox", { name: "Accent colour" })).toBeTruthy();
    // Until they are given, the three the disclosure needs are named as required.
    expect(screen.getByText(/^is required: an http or https URL of the SMS terms/)).toBeTruthy();
    fireEvent.input(screen.getByLabelText("Program name"), { target: { value: "Hope & Co Alerts" } });
    fireEvent.input(screen.getByLabelText("Terms URL"), { target: { value: "javascript:alert(1)" } });
    fireEvent.input(screen.getByLabelText("Privacy policy URL"), {
      target: { value: "https://example.org/privacy" },
    });
    const terms = screen.getByLabelText("Terms URL");
    expect(terms.getAttribute("aria-invalid")).toBe("true");
    expect(document.getElementById(terms.getAttribute("aria-describedby")!)!.textContent).toBe(
      "must be an http or https URL",
    );
    fireEvent.input(terms, { target: { value: "https://example.org/sms-terms" } });
    expect(terms.getAttribute("aria-invalid")).toBe("false");
    expect(model.problems.value).toEqual([]);
    expect(document.querySelector(".gk-snippet code")!.textContent).toBe(
      '<script src="https://proxy.example/widget.js" async></script>\n<givekit-optin shortcode="71777" keyword="HOPE" program-name="Hope &amp; Co Alerts" terms-url="https://example.org/sms-terms" privacy-url="https://example.org/privacy"></givekit-optin>',
    );
    // The preview draws the opt-in; only a donate form is saved, and the page says so.
    expect(screen.getByTitle("Phone, 390 px").getAttribute("src")).toMatch(
      /^\/dashboard\/forms\/preview\?element=optin&shortcode=71777&keyword=HOPE&program-name=Hope\+%26\+Co\+Alerts/,
    );
    expect(screen.queryByRole("button", { name: "Save" })).toBeNull();
    expect(screen.getByText(/^Only a donation form is saved here/)).toBeTruthy();
    // Back to the donate form: what was set there is kept, and its snippet names the saved form.
    fireEvent.change(screen.getByLabelText("Element"), { target: { value: "donate" } });
    expect(document.querySelector(".gk-snippet code")!.textContent).toMatch(
      /<givekit-donate shortcode="71777" keyword="HOPE" form="year-end">/,
    );
  });

  it("a donation form's languages to switch between: a check box each, by its own name, sent to the preview as locales", () => {
    const model = createDesignerModel(SETUP, "https://proxy.example", "token-1");
    render(<Designer model={model} t={designerWords("en")} lang="es" />);
    const languages = screen.getByRole("group", { name: /^Languages the donor may switch between/ });
    expect(languages.querySelectorAll("input[type=checkbox]")).toHaveLength(12);
    fireEvent.click(screen.getByRole("checkbox", { name: "Tiếng Việt" }));
    fireEvent.click(screen.getByRole("checkbox", { name: "Español" }));
    // In givekit's order, whatever order they were ticked in.
    expect(model.attributes.value.locales).toBe("es,vi");
    const src = screen.getByTitle("Phone, 390 px").getAttribute("src")!;
    expect(new URLSearchParams(src.split("?")[1]).get("locales")).toBe("es,vi");
    // The preview's own note in the designer's language.
    expect(new URLSearchParams(src.split("?")[1]).get("lang")).toBe("es");
    fireEvent.click(screen.getByRole("checkbox", { name: "Español" }));
    fireEvent.click(screen.getByRole("checkbox", { name: "Tiếng Việt" }));
    expect("locales" in model.attributes.value).toBe(false);
  });

  it("a donation form's SMS box without its program and links, and a ninth amount, are named under their controls", () => {
    const model = createDesignerModel(SETUP, "https://proxy.example", "token-1");
    render(<Designer model={model} t={designerWords("en")} lang="en" />);
    // The check boxes' own group, inside the section of the same name.
    const fields = screen.getAllByRole("group", { name: "Fields to ask for" }).at(-1)!;
    fireEvent.click(within(fields).getByRole("checkbox", { name: "sms" }));
    expect(within(fields).getByRole("alert").textContent).toBe(
      'fields="sms" needs program-name, terms-url and privacy-url (its disclosure names them); the SMS box is left out',
    );
    fireEvent.input(screen.getByLabelText("Program name"), { target: { value: "Hope Alerts" } });
    fireEvent.input(screen.getByLabelText("Terms URL"), {
      target: { value: "https://example.org/sms-terms" },
    });
    fireEvent.input(screen.getByLabelText("Privacy policy URL"), {
      target: { value: "https://example.org/privacy" },
    });
    expect(within(fields).queryByRole("alert")).toBeNull();
    const amounts = screen.getByLabelText(/^Amounts/);
    fireEvent.input(amounts, { target: { value: "5,10,15,20,25,30,35,40,45" } });
    expect(document.getElementById(amounts.getAttribute("aria-describedby")!)!.textContent).toBe(
      "lists more than 8; the rest are left out",
    );
  });

  it("a wall's limit over 50 is named under its control, as the wall words it", () => {
    const model = createDesignerModel(SETUP, "https://proxy.example", "token-1");
    render(<Designer model={model} t={designerWords("en")} lang="en" />);
    fireEvent.change(screen.getByLabelText("Element"), { target: { value: "wall" } });
    fireEvent.input(screen.getByLabelText(/^How many to show/), { target: { value: "80" } });
    expect(screen.getByRole("alert").textContent).toBe("must be a whole number from 1 to 50");
    fireEvent.change(screen.getByLabelText("Amounts"), { target: { value: "hidden" } });
    fireEvent.input(screen.getByLabelText(/^How many to show/), { target: { value: "8" } });
    expect(screen.queryByRole("alert")).toBeNull();
    expect(model.snippet.value).toMatch(
      /<givekit-wall shortcode="71777" keyword="HOPE" limit="8" amounts="hidden"><\/givekit-wall>$/,
    );
  });
});
