/**
 * What the dashboard's pages draw alike, the panels (/dashboard) and the form designer
 * (/dashboard/forms): the links between them, a section under its heading, a labelled control,
 * the status line and the note of a session that has ended. Each page's stylesheet dresses them (dashboard.css, forms.css).
 */
import type { ComponentChildren } from "preact";
// oxlint-disable-next-line import/no-unassigned-import -- built into each page's stylesheet (vite.config.ts)
import "./parts.css";

/** A section under its heading; with an `id`, the heading names it (a region a screen reader lists). */
export function Section({
  title,
  id,
  class: className,
  children,
}: {
  title: string;
  id?: string;
  class?: string;
  children: ComponentChildren;
}) {
  const titleId = id ? `${id}-title` : undefined;
  return (
    <section class={className} aria-labelledby={titleId}>
      <h2 id={titleId}>{title}</h2>
      {children}
    </section>
  );
}

/** A control under its label: `id` is the control's, among the children. */
export function Control({ id, label, children }: { id: string; label: string; children: ComponentChildren }) {
  return (
    <div class="control">
      <label for={id}>{label}</label>
      {children}
    </div>
  );
}

/** A select of [value, text] choices. */
export function Select({
  id,
  value,
  options,
  onChange,
}: {
  id: string;
  value: string;
  options: readonly (readonly [string, string])[];
  onChange: (value: string) => void;
}) {
  return (
    <select id={id} value={value} onChange={(event) => onChange(event.currentTarget.value)}>
      {options.map(([choice, text]) => (
        <option key={choice} value={choice}>
          {text}
        </option>
      ))}
    </select>
  );
}

/** The page's status line: what the page is doing or what an action came to, read out as it changes. */
export function StatusLine({ children }: { children: ComponentChildren }) {
  return (
    // oxlint-disable-next-line jsx-a11y/prefer-tag-over-role -- a paragraph that is a live region: screen readers announce role="status" more widely than <output>'s implied one
    <p id="status" role="status">
      {children}
    </p>
  );
}

/** Said in place of a page when its session has ended (the proxy answered 401). */
export function SignedOut({ t }: { t: { signIn: string } }) {
  return <p class="signed-out">{t.signIn}</p>;
}

/** The dashboard's pages, by their paths: the panels and the form designer. */
const PAGES = [
  ["/dashboard", "panelsPage"],
  ["/dashboard/forms", "formsPage"],
] as const;

/**
 * The links between the dashboard's pages, the one shown marked current; a language the address
 * chose (`?lang=`, which each page reads before the browser's) goes along.
 */
export function PageLinks({
  t,
  current,
}: {
  t: { pages: string; panelsPage: string; formsPage: string };
  current: (typeof PAGES)[number][0];
}) {
  const lang = new URLSearchParams(location.search).get("lang");
  const asked = lang === "en" || lang === "es" ? `?lang=${lang}` : "";
  return (
    <nav class="pages" aria-label={t.pages}>
      {PAGES.map(([path, word]) => (
        <a key={path} href={`${path}${asked}`} aria-current={path === current ? "page" : undefined}>
          {t[word]}
        </a>
      ))}
    </nav>
  );
}
