import { computed, signal } from "@preact/signals-core";
import {
  checkDesign,
  FORM_ATTRIBUTES,
  SAVED_FORM_ELEMENTS,
  THEME_DEFAULTS,
  THEME_PROPERTIES,
  type DesignProblem,
  type FormDesign,
  type FormElement,
  type FormTheme,
  type SavedFormVersion,
} from "../../../contract/saved-forms";
import { sendChange } from "../send";

/** A campaign as the designer's setup lists it (GET /dashboard/forms/setup.json). */
export interface SetupCampaign {
  shortcode: string;
  keyword: string;
  currency: string;
  min_amount: string;
  max_amount: string;
  recurring_frequencies: string[];
}
export interface Setup {
  campaigns: SetupCampaign[];
  allowed_origins: string[];
  forms: SavedFormVersion[];
}

/** What a save or a restore came to, for the status line. */
export type SaveStatus =
  | { kind: "idle" }
  | { kind: "saved"; version: number }
  | { kind: "refused"; errors: Record<string, string[]> }
  | { kind: "changed"; detail: string }
  | { kind: "signed-out" };

/** The prefill link of the campaign page: its address with ?amount= and ?frequency= (widget/donate/gift/prefill.ts reads them). */
export function prefillLink(
  page: string,
  amount: string | undefined,
  frequency: string | undefined,
): string | null {
  try {
    const url = new URL(page);
    if (!/^https?:$/.test(url.protocol)) return null;
    if (amount) url.searchParams.set("amount", amount.split(":")[0]!.trim());
    if (frequency) url.searchParams.set("frequency", frequency);
    return url.href;
  } catch {
    return null;
  }
}

/** A value as an attribute writes it, between double quotes. */
const quoted = (value: string) =>
  `"${value.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;")}"`;

/**
 * The element to paste: a donate design by its saved form's name (the proxy serves the rest);
 * any other with its attributes written out, in the order REFERENCE.md lists them, and its theme
 * as the custom properties of its `style`.
 */
export function elementSnippet(design: FormDesign, name: string): string {
  const tag = `givekit-${design.element}`;
  let attributes = ` shortcode=${quoted(design.shortcode)} keyword=${quoted(design.keyword)}`;
  if (SAVED_FORM_ELEMENTS.includes(design.element)) attributes += ` form=${quoted(name)}`;
  else {
    for (const key of FORM_ATTRIBUTES[design.element]) {
      const value = design.attributes[key];
      if (value !== undefined) attributes += key === "data-layer" ? ` ${key}` : ` ${key}=${quoted(value)}`;
    }
    const style = Object.entries(THEME_PROPERTIES)
      .filter(([key]) => design.theme[key as keyof FormTheme] !== undefined)
      .map(([key, property]) => `${property}: ${design.theme[key as keyof FormTheme]}`)
      .join("; ");
    if (style) attributes += ` style=${quoted(style)}`;
  }
  return `<${tag}${attributes}></${tag}>`;
}

/**
 * The designer's state and actions, as signals: the design being made, its problems as the
 * element and the proxy would find them (contract/saved-forms.ts checkDesign), the snippet, and
 * saving, restoring and the history through the dashboard's routes (proxy/dashboard/forms.ts).
 *
 * @example
 * const model = createDesignerModel(setup, origin, main.dataset.formToken);
 * model.setAttribute("amounts", "50,100,250");
 * await model.save();
 */
export function createDesignerModel(
  setup: Setup,
  proxyOrigin: string,
  /** The page's form token, sent back with each save (the dashboard's guard refuses a POST without it). */
  formToken: string,
  fetcher: typeof fetch = fetch,
) {
  const first = setup.campaigns[0];
  const name = signal("year-end");
  const campaign = signal(first ? `${first.shortcode}/${first.keyword}` : "");
  const element = signal<FormElement>("donate");
  /** Each element's attributes, kept apart (a wall's `amounts` is not a form's) and kept while another is shown. */
  const values = signal<Partial<Record<FormElement, Record<string, string>>>>({});
  const attributes = computed(() => values.value[element.value] ?? {});
  const setAttributes = (next: Record<string, string>) => {
    values.value = { ...values.peek(), [element.peek()]: next };
  };
  /** Whether this element's design is saved (a donate form), or only given as its snippet. */
  const savable = computed(() => SAVED_FORM_ELEMENTS.includes(element.value));
  const theme = signal<FormTheme>({});
  /** The version the design was opened from (0: a new form); a save says it, so a later one by someone else is told. */
  const after = signal(0);
  const status = signal<SaveStatus>({ kind: "idle" });
  const history = signal<SavedFormVersion[]>([]);
  const forms = signal(setup.forms);
  const pageUrl = signal(setup.allowed_origins[0] ? `${setup.allowed_origins[0]}/give` : "");

  const chosen = computed(
    () => setup.campaigns.find((c) => `${c.shortcode}/${c.keyword}` === campaign.value) ?? null,
  );
  const design = computed<FormDesign>(() => {
    const [shortcode = "", keyword = ""] = campaign.value.split("/");
    return { element: element.value, shortcode, keyword, attributes: attributes.value, theme: theme.value };
  });
  const problems = computed<DesignProblem[]>(() =>
    checkDesign(design.value, { campaign: chosen.value, allowedOrigins: setup.allowed_origins }),
  );
  /** Each control's problems, by its field (`amounts`, `theme.accent`). */
  const problemsOf = computed(() => {
    const by: Record<string, string[]> = {};
    for (const { field, message } of problems.value) (by[field] ??= []).push(message);
    return by;
  });
  const snippet = computed(
    () =>
      `<script src="${proxyOrigin}/widget.js" async></script>\n${elementSnippet(design.value, name.value)}`,
  );
  /** The preview page's address: the design as the element's attributes, the theme beside them. */
  const previewUrl = computed(() => {
    const query = new URLSearchParams({
      element: element.value,
      shortcode: design.value.shortcode,
      keyword: design.value.keyword,
    });
    for (const [key, value] of Object.entries(attributes.value)) query.set(key, value);
    for (const [key, value] of Object.entries(theme.value))
      if (key !== "background") query.set(`theme.${key}`, value);
    return `/dashboard/forms/preview?${query}`;
  });
  /** The prefill link, for the elements that open a donate form. */
  const link = computed(() =>
    element.value === "donate" || element.value === "button"
      ? prefillLink(pageUrl.value, attributes.value["default-amount"], attributes.value["default-frequency"])
      : null,
  );
  /** The colours the checks use where the theme says nothing. */
  const colour = (key: "accent" | "text" | "background") => theme.value[key] ?? THEME_DEFAULTS[key];

  async function send(path: string, method: "POST" | "PUT", body: unknown) {
    const { res, answer } = await sendChange(path, method, body, formToken, fetcher);
    if (res.ok) {
      const saved = answer as unknown as SavedFormVersion;
      after.value = saved.version;
      element.value = saved.design.element;
      setAttributes(saved.design.attributes);
      theme.value = saved.design.theme;
      status.value = { kind: "saved", version: saved.version };
      await loadHistory();
      forms.value = [...forms.peek().filter((f) => f.name !== saved.name), saved];
    } else if (res.status === 401) status.value = { kind: "signed-out" };
    else if (answer.code === "form_changed")
      status.value = { kind: "changed", detail: String(answer.detail ?? "") };
    else
      status.value = {
        kind: "refused",
        errors: (answer.errors as Record<string, string[]>) ?? {
          form: [String(answer.detail ?? answer.title)],
        },
      };
  }

  async function loadHistory() {
    const res = await fetcher(`/dashboard/forms/${name.peek()}.json`, { credentials: "same-origin" });
    history.value = res.ok ? ((await res.json()) as { versions: SavedFormVersion[] }).versions : [];
  }

  return {
    /** The campaigns served here, as "shortcode/KEYWORD". */
    campaigns: setup.campaigns.map((c) => `${c.shortcode}/${c.keyword}`),
    name,
    campaign,
    element,
    attributes,
    savable,
    theme,
    after,
    status,
    history,
    forms,
    pageUrl,
    chosen,
    design,
    problems,
    problemsOf,
    snippet,
    previewUrl,
    link,
    colour,
    /** Sets one attribute, or (null, or empty unless `keepEmpty`: an attribute whose presence says something) removes it. */
    setAttribute(key: string, value: string | null, keepEmpty = false) {
      const next = { ...attributes.peek() };
      if (value === null || (value === "" && !keepEmpty)) delete next[key];
      else next[key] = value;
      setAttributes(next);
    },
    setTheme(key: keyof FormTheme, value: string) {
      const next = { ...theme.value };
      if (value === "") delete next[key];
      else next[key] = value;
      theme.value = next;
    },
    /** Opens a saved form's latest version to change it. */
    async open(version: SavedFormVersion) {
      name.value = version.name;
      campaign.value = `${version.design.shortcode}/${version.design.keyword}`;
      element.value = version.design.element;
      setAttributes(version.design.attributes);
      theme.value = version.design.theme;
      after.value = version.version;
      status.value = { kind: "idle" };
      await loadHistory();
    },
    save: () =>
      send(`/dashboard/forms/${encodeURIComponent(name.value)}`, "PUT", {
        design: design.value,
        after: after.value,
      }),
    restore: (version: number) =>
      send(`/dashboard/forms/${encodeURIComponent(name.value)}/restore`, "POST", {
        version,
        after: after.value,
      }),
  };
}
export type DesignerModel = ReturnType<typeof createDesignerModel>;
