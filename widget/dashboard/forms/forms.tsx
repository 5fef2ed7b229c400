/**
 * The form designer's script (/dashboard/forms): loads the setup, then draws the designer
 * (Designer.tsx) from its model (designer-model.ts). On the preview page it frames
 * (/dashboard/forms/preview) it only lays the design's theme on the element (any of the six): the proxy wrote the
 * element's attributes, and a style set through the CSSOM needs no inline style.
 */
import { render } from "preact";
import { FORM_ELEMENTS, THEME_PROPERTIES, type FormElement } from "../../../contract/saved-forms";
import { createDesignerModel, type Setup } from "./designer-model";
import { Designer } from "./Designer";
import { designerWords, languageOf } from "../i18n";
import { SignedOut } from "../parts";
// oxlint-disable-next-line import/no-unassigned-import -- the stylesheet is built beside the script (vite.config.ts, designer)
import "./forms.css";

function themePreview() {
  const query = new URLSearchParams(location.search);
  const chosen = (query.get("element") ?? "donate") as FormElement;
  if (!FORM_ELEMENTS.includes(chosen)) return;
  const element = document.querySelector<HTMLElement>(`givekit-${chosen}`);
  for (const [key, property] of Object.entries(THEME_PROPERTIES)) {
    const value = query.get(`theme.${key}`);
    if (value) element?.style.setProperty(property, value);
  }
  sayWhenNothingIsSent(query.get("lang") === "es" ? "es" : "en");
}

/**
 * The preview's CSP (proxy/dashboard/forms.ts) lets its element read its campaign only: a sign-up
 * or a gift is stopped in the browser. Said under the element, once, so staff see why.
 */
function sayWhenNothingIsSent(lang: "en" | "es") {
  document.addEventListener("securitypolicyviolation", (event) => {
    if (event.effectiveDirective !== "connect-src" || document.getElementById("not-sent")) return;
    const note = document.createElement("p");
    note.id = "not-sent";
    note.className = "gk-note";
    note.setAttribute("role", "status");
    note.textContent = designerWords(lang).previewSentNothing;
    document.body.append(note);
  });
}

async function start() {
  const main = document.getElementById("designer");
  if (!main) return themePreview();
  const lang = languageOf(main);
  const t = designerWords(lang);
  const res = await fetch("/dashboard/forms/setup.json", { credentials: "same-origin" });
  if (!res.ok) {
    render(<SignedOut t={t} />, main);
    return;
  }
  const model = createDesignerModel(
    (await res.json()) as Setup,
    location.origin,
    main.dataset.formToken ?? "",
  );
  render(<Designer model={model} t={t} lang={lang} />, main);
}

void start();
