/**
 * The panels' pieces: a table, a list of figures, a chart of bars and a CSV link. Every cell is
 * text: nothing the proxy sends is read as markup.
 */
import type { AriaRole } from "preact";
import type { PanelWords } from "./i18n";

/**
 * A table: its caption, head and rows, the first cell of each row its head. A `stacked` one
 * becomes a card per row in a narrow panel, each figure beside its column's name (dashboard.css):
 * nothing to scroll sideways. A wide one scrolls inside its panel, its region taking the
 * keyboard's focus to scroll it.
 */
export function Table({
  caption,
  head,
  rows,
  stacked = false,
}: {
  caption: string;
  head: string[];
  rows: string[][];
  stacked?: boolean;
}) {
  // Drawn as blocks in a narrow panel, a stacked table keeps its table's roles for a screen reader
  // (Safari drops a table's semantics with its display; Chromium keeps them).
  const role = (name: AriaRole) => (stacked ? name : undefined);
  return (
    // oxlint-disable-next-line jsx-a11y/no-noninteractive-tabindex, jsx-a11y/prefer-tag-over-role -- a scrolling region takes the keyboard's focus to scroll (WCAG 2.1.1); a <section> here would be a landmark for each table
    <div class="scroll" tabIndex={0} role="region" aria-label={caption}>
      <table class={stacked ? "stacked" : undefined} role={role("table")}>
        <caption>{caption}</caption>
        <thead role={role("rowgroup")}>
          <tr role={role("row")}>
            {head.map((text) => (
              <th key={text} scope="col" role={role("columnheader")}>
                {text}
              </th>
            ))}
          </tr>
        </thead>
        <tbody role={role("rowgroup")}>
          {rows.map((row, index) => (
            <tr key={index} role={role("row")}>
              {row.map((text, column) =>
                column === 0 ? (
                  <th key={column} scope="row" role={role("rowheader")}>
                    {text}
                  </th>
                ) : (
                  <td
                    key={column}
                    role={role("cell")}
                    data-label={stacked ? (head[column] ?? "") : undefined}
                  >
                    {text}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A list of labelled figures: a panel's "figures" (large) or its "facts". */
export function Figures({
  class: className,
  figures,
}: {
  class: "figures" | "facts";
  figures: readonly (readonly [label: string, value: string])[];
}) {
  return (
    <dl class={className}>
      {figures.map(([label, value]) => (
        <div class="figure" key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The CSV of one table for the view on screen. */
export function CsvLink({ name, view, t }: { name: string; view: URLSearchParams; t: PanelWords }) {
  return (
    <a class="csv" href={`/dashboard/${name}.csv?${view}`} download="">
      {t.csv}
    </a>
  );
}

const WIDTH = 720;
const HEIGHT = 200;

/** A count per hour as bars, the hours along the bottom: a chart the page draws itself (plain SVG). */
export function Bars({
  title,
  hours,
  hourLabel,
}: {
  title: string;
  hours: { hour: string; value: number }[];
  hourLabel: (iso: string) => string;
}) {
  const top = Math.max(0, ...hours.map((bar) => bar.value));
  const step = WIDTH / hours.length;
  // A label every few hours, so they never overlap at any width.
  const labelEvery = Math.ceil(hours.length / 12);
  return (
    // oxlint-disable-next-line jsx-a11y/prefer-tag-over-role -- a drawn chart, read as one image by its title
    <svg viewBox={`0 0 ${WIDTH} ${HEIGHT + 24}`} role="img" class="chart">
      <title>{`${title}: ${hours.map((bar) => `${hourLabel(bar.hour)} ${bar.value}`).join(", ")}`}</title>
      {hours.flatMap((hour, index) => {
        const barHeight = top === 0 ? 0 : Math.round((hour.value / top) * (HEIGHT - 16));
        return [
          <rect
            key={`bar ${hour.hour}`}
            x={(index * step + step * 0.1).toFixed(1)}
            y={HEIGHT - barHeight}
            width={(step * 0.8).toFixed(1)}
            height={barHeight}
            class="bar"
          />,
          index % labelEvery === 0 ? (
            <text
              key={`label ${hour.hour}`}
              x={(index * step + step / 2).toFixed(1)}
              y={HEIGHT + 18}
              text-anchor="middle"
              class="axis"
            >
              {hourLabel(hour.hour)}
            </text>
          ) : null,
        ];
      })}
    </svg>
  );
}
