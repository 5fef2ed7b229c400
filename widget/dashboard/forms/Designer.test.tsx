import { act, cleanup, render, screen } from "@testing-library/preact";
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
});
