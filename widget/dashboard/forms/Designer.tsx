import type { ComponentChildren } from "preact";
import {
  contrastRatio,
  FORM_ELEMENTS,
  parseColour,
  ratioText,
  TEXT_CONTRAST_MIN,
  UI_CONTRAST_MIN,
  type FormElement,
} from "../../../contract/saved-forms";
import { WALL_AMOUNTS } from "../../../contract/element-rules";
import { LEADERBOARD_KINDS } from "../../../contract/gala";
import { RECURRING_FREQUENCIES } from "../../../contract/patterns";
import { LOCALE_NAMES } from "../../../contract/locale-names";
import { LOCALES } from "../../../contract/locales";
import { COVER_FEE_MODES, LAYOUTS, OPTIONAL_FIELDS, readFields } from "../../donate/base/attributes";
import { reactive } from "../../shared/reactive";
import type { DesignerModel } from "./designer-model";
import type { DesignerWords } from "../i18n";
import { Control, PageLinks, Section, StatusLine } from "../parts";

interface Part {
  model: DesignerModel;
  t: DesignerWords;
}

/** The problems of one control, named under it (and read with it: aria-describedby). */
const Problems = reactive(({ model, field }: { model: DesignerModel; field: string }) => {
  const said = model.problemsOf.value[field];
  return said ? (
    <p class="gk-problem" id={`problem-${field}`} role="alert">
      {said.join(" ")}
    </p>
  ) : null;
});

/** A labelled text control for one attribute. */
const TextControl = reactive(
  ({
    model,
    name,
    label,
    type = "text",
    keepEmpty = false,
  }: {
    model: DesignerModel;
    name: string;
    label: string;
    type?: "text" | "url" | "number";
    /** Emptied, the attribute stays, empty (its presence means something: `monthly-prompt`). */
    keepEmpty?: boolean;
  }) => {
    const id = `control-${name}`;
    const wrong = Boolean(model.problemsOf.value[name]);
    return (
      <Control id={id} label={label}>
        <input
          id={id}
          type="text"
          inputMode={type === "url" ? "url" : type === "number" ? "numeric" : "text"}
          value={model.attributes.value[name] ?? ""}
          aria-invalid={wrong}
          aria-describedby={wrong ? `problem-${name}` : undefined}
          onInput={(event) => model.setAttribute(name, event.currentTarget.value, keepEmpty)}
        />
        <Problems model={model} field={name} />
      </Control>
    );
  },
);

/** A select for one attribute, its first choice "none" (the element's own default). */
const Choice = reactive(
  ({
    model,
    name,
    label,
    options,
    none,
  }: {
    model: DesignerModel;
    name: string;
    label: string;
    options: readonly (readonly [string, string])[];
    none: string;
  }) => {
    const id = `control-${name}`;
    return (
      <Control id={id} label={label}>
        <select
          id={id}
          value={model.attributes.value[name] ?? ""}
          onChange={(event) => model.setAttribute(name, event.currentTarget.value)}
        >
          <option value="">{none}</option>
          {options.map(([value, text]) => (
            <option value={value} key={value}>
              {text}
            </option>
          ))}
        </select>
        <Problems model={model} field={name} />
      </Control>
    );
  },
);

/** A group of controls under its legend. */
const Group = ({ title, children }: { title: string; children: ComponentChildren }) => (
  <fieldset class="gk-section">
    <legend>{title}</legend>
    {children}
  </fieldset>
);

/** The frequencies offered, as check boxes of the campaign's own. */
const Frequencies = reactive(({ model, t }: Part) => {
  const offered = ["once", ...(model.chosen.value?.recurring_frequencies ?? RECURRING_FREQUENCIES)];
  const on = (model.attributes.value.frequencies ?? "once,monthly").split(",").filter(Boolean);
  const toggle = (frequency: string, checked: boolean) => {
    const next = offered.filter((f) => (f === frequency ? checked : on.includes(f)));
    model.setAttribute("frequencies", next.join(","));
  };
  return (
    <fieldset class="control">
      <legend>{t.frequencies}</legend>
      {offered.map((frequency) => (
        <label class="gk-inline" key={frequency}>
          <input
            type="checkbox"
            checked={on.includes(frequency)}
            onChange={(event) => toggle(frequency, event.currentTarget.checked)}
          />
          {frequency}
        </label>
      ))}
      <Problems model={model} field="frequencies" />
    </fieldset>
  );
});

/** The languages a donor may switch between (`locales`), as check boxes of givekit's by their own names. */
const Locales = reactive(({ model, t }: Part) => {
  const on = (model.attributes.value.locales ?? "").split(",").map((tag) => tag.trim());
  const toggle = (locale: string, checked: boolean) =>
    model.setAttribute("locales", LOCALES.filter((l) => (l === locale ? checked : on.includes(l))).join(","));
  return (
    <fieldset class="control">
      <legend>{t.locales}</legend>
      {LOCALES.map((locale) => (
        <label class="gk-inline" key={locale} lang={locale}>
          <input
            type="checkbox"
            checked={on.includes(locale)}
            onChange={(event) => toggle(locale, event.currentTarget.checked)}
          />
          {LOCALE_NAMES[locale]}
        </label>
      ))}
      <Problems model={model} field="locales" />
    </fieldset>
  );
});

/** The optional fields, each on or off and, when on, required or not. */
const Fields = reactive(({ model, t }: Part) => {
  const on = readFields(model.attributes.value.fields ?? null);
  const write = (next: Record<string, boolean>) =>
    model.setAttribute(
      "fields",
      Object.entries(next)
        .map(([field, required]) => (required ? `${field}:required` : field))
        .join(","),
    );
  return (
    <fieldset class="control">
      <legend>{t.fields}</legend>
      {OPTIONAL_FIELDS.map((field) => (
        <div class="gk-inline" key={field}>
          <label>
            <input
              type="checkbox"
              checked={field in on}
              onChange={(event) => {
                const next: Record<string, boolean> = { ...on };
                if (event.currentTarget.checked) next[field] = false;
                else delete next[field];
                write(next);
              }}
            />
            {field}
          </label>
          {field in on ? (
            <label>
              <input
                type="checkbox"
                checked={on[field] === true}
                onChange={(event) => write({ ...on, [field]: event.currentTarget.checked })}
              />
              {t.required}
            </label>
          ) : null}
        </div>
      ))}
      <Problems model={model} field="fields" />
    </fieldset>
  );
});

/** A colour of the theme: a picker and its text, with the contrast it makes said as it changes. */
const ColourControl = reactive(({ model, t, name }: Part & { name: "accent" | "text" | "background" }) => {
  const id = `theme-${name}`;
  const value = model.theme.value[name] ?? "";
  const wrong = Boolean(model.problemsOf.value[`theme.${name}`]);
  return (
    <Control id={id} label={t[name]}>
      <span class="gk-inline">
        <input
          type="color"
          aria-label={`${t[name]}: ${t.picker}`}
          value={/^#[0-9a-f]{6}$/i.test(model.colour(name)) ? model.colour(name) : "#000000"}
          onInput={(event) => model.setTheme(name, event.currentTarget.value)}
        />
        <input
          id={id}
          value={value}
          placeholder={model.colour(name)}
          aria-invalid={wrong}
          aria-describedby={wrong ? `problem-theme.${name}` : undefined}
          onInput={(event) => model.setTheme(name, event.currentTarget.value)}
        />
      </span>
      <Problems model={model} field={`theme.${name}`} />
    </Control>
  );
});

/** The contrast of the pairs WCAG 2.2 AA asks about, each with its ratio, as the colours change. */
const Contrast = reactive(({ model, t }: Part) => {
  const [accent, text, background] = (["accent", "text", "background"] as const).map((k) =>
    parseColour(model.colour(k)),
  );
  if (!accent || !text || !background) return null;
  const white: [number, number, number] = [255, 255, 255];
  const rows: [string, number, number][] = [
    [t.contrastText, contrastRatio(text, background), TEXT_CONTRAST_MIN],
    [t.contrastButton, contrastRatio(white, accent), TEXT_CONTRAST_MIN],
    [t.contrastFocus, contrastRatio(accent, background), UI_CONTRAST_MIN],
  ];
  return (
    <ul class="gk-contrast">
      {rows.map(([what, ratio, min]) => (
        <li key={what} class={ratio < min ? "gk-warn" : "gk-ok"}>
          {what}: {ratioText(ratio)} {ratio < min ? `< ${min}:1` : "✓"}
        </li>
      ))}
    </ul>
  );
});

/** The real widget, in a sandboxed frame at a phone's width and a larger one. */
const Preview = reactive(({ model, t, lang }: Part & { lang: string }) => {
  // The preview's own note (that it sent nothing) in the designer's language.
  const src = `${model.previewUrl.value}&lang=${lang}`;
  return (
    <Section class="gk-preview-pane" id="preview" title={t.preview}>
      <p class="gk-note">{t.previewNote}</p>
      <div class="gk-frames">
        <iframe
          title={t.phone}
          class="gk-phone"
          // oxlint-disable-next-line react/iframe-missing-sandbox -- the preview is this proxy's own page (its widget asks the proxy as its own origin); the sandbox still keeps it from the top window, popups and downloads
          sandbox="allow-scripts allow-same-origin allow-forms"
          src={src}
        />
        <iframe
          title={t.screen}
          class="gk-screen"
          // oxlint-disable-next-line react/iframe-missing-sandbox -- the preview is this proxy's own page (its widget asks the proxy as its own origin); the sandbox still keeps it from the top window, popups and downloads
          sandbox="allow-scripts allow-same-origin allow-forms"
          src={src}
        />
      </div>
    </Section>
  );
});

/** The two lines to paste, a Copy button, the prefill link and its QR code. */
const Snippet = reactive(({ model, t }: Part) => {
  const link = model.link.value;
  return (
    <Section id="snippet" title={t.snippet}>
      <pre class="gk-snippet">
        <code>{model.snippet.value}</code>
      </pre>
      <button
        type="button"
        onClick={async (event) => {
          const button = event.currentTarget;
          await navigator.clipboard.writeText(model.snippet.value);
          button.textContent = t.copied;
        }}
      >
        {t.copy}
      </button>
      {model.element.value === "donate" || model.element.value === "button" ? (
        <>
          <h3>{t.prefill}</h3>
          <Control id="page-url" label={t.pageUrl}>
            <input
              id="page-url"
              type="url"
              value={model.pageUrl.value}
              onInput={(e) => (model.pageUrl.value = e.currentTarget.value)}
            />
          </Control>
          {link ? (
            <>
              <p>
                <a href={link}>{link}</a>
              </p>
              <img
                class="gk-qr"
                alt={`${t.qr}: ${link}`}
                src={`/dashboard/forms/qr.svg?url=${encodeURIComponent(link)}`}
              />
            </>
          ) : null}
        </>
      ) : null}
    </Section>
  );
});

/** Save, what it came to, and every version with who saved it and when, each restorable. */
const Versions = reactive(({ model, t, lang }: Part & { lang: string }) => {
  if (!model.savable.value) return <p class="gk-note">{t.notSavedElement}</p>;
  const status = model.status.value;
  const when = (iso: string) => new Date(iso).toLocaleString(lang);
  return (
    <>
      <button type="button" class="gk-save" onClick={() => void model.save()}>
        {t.save}
      </button>
      <StatusLine>
        {status.kind === "saved"
          ? t.saved(status.version)
          : status.kind === "refused"
            ? `${t.notSaved} ${Object.entries(status.errors)
                .map(([field, said]) => `${field}: ${said.join(" ")}`)
                .join(" · ")}`
            : status.kind === "changed"
              ? `${t.changed} ${status.detail}`
              : status.kind === "signed-out"
                ? t.signIn
                : ""}
      </StatusLine>
      <Section id="versions" title={t.history}>
        <ol class="gk-versions">
          {model.history.value.map((version, i) => (
            <li key={version.version}>
              v{version.version} · {t.by(version.author, when(version.saved_at))} ·{" "}
              {version.design.attributes.amounts ?? ""}
              {i > 0 ? (
                <button type="button" onClick={() => void model.restore(version.version)}>
                  {t.restore} v{version.version}
                </button>
              ) : null}
            </li>
          ))}
        </ol>
      </Section>
    </>
  );
});

/** The language control, which every element has. */
const LocaleChoice = ({ model, t }: Part) => (
  <Choice
    model={model}
    name="locale"
    label={t.locale}
    none={t.none}
    options={LOCALES.map((l) => [l, LOCALE_NAMES[l]] as const)}
  />
);

/** The SMS program's name and links: the opt-in's, and a donate form's SMS box's. */
const OptinControls = ({ model, t }: Part) => (
  <Group title={t.optin}>
    {model.element.peek() === "optin" ? <TextControl model={model} name="list" label={t.list} /> : null}
    <TextControl model={model} name="program-name" label={t.programName} />
    <TextControl model={model} name="terms-url" label={t.termsUrl} type="url" />
    <TextControl model={model} name="privacy-url" label={t.privacyUrl} type="url" />
    {model.element.peek() === "optin" ? <LocaleChoice model={model} t={t} /> : null}
  </Group>
);

/** A donate form's controls: what `<givekit-donate>` takes, and `<givekit-button>` hands on to the form it opens. */
const GiftControls = reactive(({ model, t }: Part) => {
  const amounts = (model.attributes.value.amounts ?? "25,50,100,250")
    .split(",")
    .map((a) => a.split(":")[0]!.trim());
  const frequencies = (model.attributes.value.frequencies ?? "once,monthly").split(",");
  return (
    <>
      <Group title={t.form}>
        {model.element.value === "button" ? <TextControl model={model} name="label" label={t.label} /> : null}
        <TextControl model={model} name="heading" label={t.heading} />
        <Choice
          model={model}
          name="layout"
          label={t.layout}
          none={t.none}
          options={LAYOUTS.map((l) => [l, t.layouts[l]] as const)}
        />
        <LocaleChoice model={model} t={t} />
        <Locales model={model} t={t} />
      </Group>
      <Group title={t.gift}>
        <TextControl model={model} name="amounts" label={t.amounts} />
        <TextControl model={model} name="monthly-amounts" label={t.monthlyAmounts} />
        <Choice
          model={model}
          name="default-amount"
          label={t.defaultAmount}
          none={t.none}
          options={amounts.map((a) => [a, a] as const)}
        />
        <Frequencies model={model} t={t} />
        <Choice
          model={model}
          name="default-frequency"
          label={t.defaultFrequency}
          none={t.none}
          options={frequencies.map((f) => [f, f] as const)}
        />
        <Choice
          model={model}
          name="cover-fee"
          label={t.coverFee}
          none={t.none}
          options={COVER_FEE_MODES.map((m) => [m, m] as const)}
        />
        <div class="control">
          <label class="gk-inline">
            <input
              type="checkbox"
              checked={"monthly-prompt" in model.attributes.value}
              onChange={(e) =>
                model.setAttribute("monthly-prompt", e.currentTarget.checked ? "" : null, true)
              }
            />
            {t.monthlyPromptOn}
          </label>
        </div>
        {"monthly-prompt" in model.attributes.value ? (
          <TextControl model={model} name="monthly-prompt" label={t.monthlyPrompt} keepEmpty />
        ) : null}
        <TextControl model={model} name="fundraiser" label={t.fundraiser} />
        <TextControl model={model} name="team" label={t.team} />
      </Group>
      <Group title={t.fields}>
        <Fields model={model} t={t} />
        <TextControl model={model} name="success-url" label={t.successUrl} type="url" />
        <TextControl model={model} name="source" label={t.source} />
        <TextControl model={model} name="form-id" label={t.formId} />
        <div class="control">
          <label class="gk-inline">
            <input
              type="checkbox"
              checked={"data-layer" in model.attributes.value}
              onChange={(e) => model.setAttribute("data-layer", e.currentTarget.checked ? "on" : "")}
            />
            {t.dataLayer}
          </label>
        </div>
      </Group>
      <OptinControls model={model} t={t} />
    </>
  );
});

/** The goal's, the wall's and the leaderboard's controls: what they show, how many, how often. */
const FigureControls = ({ model, t, element }: Part & { element: "goal" | "wall" | "leaderboard" }) => (
  <Group title={t.figures}>
    {element === "leaderboard" ? (
      <Choice
        model={model}
        name="of"
        label={t.of}
        none={t.none}
        options={LEADERBOARD_KINDS.map((kind) => [kind, t.ofChoices[kind] ?? kind] as const)}
      />
    ) : null}
    {element === "goal" ? null : <TextControl model={model} name="limit" label={t.limit} type="number" />}
    {element === "wall" ? (
      <Choice
        model={model}
        name="amounts"
        label={t.wallAmounts}
        none={t.none}
        options={WALL_AMOUNTS.map((shown) => [shown, t.wallAmountChoices[shown] ?? shown] as const)}
      />
    ) : null}
    {element === "leaderboard" ? (
      <TextControl model={model} name="donate-url" label={t.donateUrl} type="url" />
    ) : null}
    {element === "wall" ? null : <TextControl model={model} name="refresh" label={t.refresh} type="number" />}
    <LocaleChoice model={model} t={t} />
  </Group>
);

/** The chosen element's own controls. */
const ElementControls = reactive(({ model, t }: Part) => {
  const element: FormElement = model.element.value;
  if (element === "donate" || element === "button") return <GiftControls model={model} t={t} />;
  if (element === "optin") return <OptinControls model={model} t={t} />;
  return <FigureControls model={model} t={t} element={element} />;
});

/** The designer: the controls, the preview, the snippet and the versions. */
export const Designer = reactive(({ model, t, lang }: Part & { lang: string }) => (
  <div class="gk-designer">
    <PageLinks t={t} current="/dashboard/forms" />
    <h1>{t.title}</h1>
    <p>{t.intro}</p>
    <div class="gk-columns">
      <form class="controls" onSubmit={(event) => event.preventDefault()}>
        <Group title={t.what}>
          <Control id="control-element" label={t.element}>
            <select
              id="control-element"
              value={model.element.value}
              onChange={(event) => (model.element.value = event.currentTarget.value as FormElement)}
            >
              {FORM_ELEMENTS.map((element) => (
                <option key={element} value={element}>
                  {t.elements[element]}
                </option>
              ))}
            </select>
            <Problems model={model} field="element" />
          </Control>
          {model.savable.value ? (
            <>
              <Control id="control-open" label={t.open}>
                <select
                  id="control-open"
                  onChange={(event) => {
                    const form = model.forms.value.find((f) => f.name === event.currentTarget.value);
                    if (form) void model.open(form);
                  }}
                >
                  <option value="">{t.newForm}</option>
                  {model.forms.value.map((form) => (
                    <option key={form.name} value={form.name}>
                      {form.name} (v{form.version})
                    </option>
                  ))}
                </select>
              </Control>
              <Control id="control-name" label={t.name}>
                <input
                  id="control-name"
                  value={model.name.value}
                  onInput={(e) => (model.name.value = e.currentTarget.value)}
                />
              </Control>
            </>
          ) : null}
          <Control id="control-campaign" label={t.campaign}>
            <select
              id="control-campaign"
              value={model.campaign.value}
              onChange={(e) => (model.campaign.value = e.currentTarget.value)}
            >
              {model.chosen.value === null ? (
                <option value={model.campaign.value}>{model.campaign.value}</option>
              ) : null}
              {model.campaigns.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
            <Problems model={model} field="campaign" />
          </Control>
        </Group>
        <ElementControls model={model} t={t} />
        <Group title={t.theme}>
          <ColourControl model={model} t={t} name="accent" />
          <ColourControl model={model} t={t} name="text" />
          <ColourControl model={model} t={t} name="background" />
          <Contrast model={model} t={t} />
          {(["font", "size", "radius"] as const).map((key) => (
            <Control key={key} id={`theme-${key}`} label={t[key]}>
              <input
                id={`theme-${key}`}
                value={model.theme.value[key] ?? ""}
                onInput={(e) => model.setTheme(key, e.currentTarget.value)}
              />
              <Problems model={model} field={`theme.${key}`} />
            </Control>
          ))}
        </Group>
      </form>
      <div class="gk-side">
        <Preview model={model} t={t} lang={lang} />
        <Snippet model={model} t={t} />
        <Versions model={model} t={t} lang={lang} />
      </div>
    </div>
  </div>
));
