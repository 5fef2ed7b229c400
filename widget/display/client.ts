/**
 * The screen for the room (/display/{shortcode}/{keyword}, proxy/campaign/display-page.ts, proxy/routes/display.ts): its figures, the wall
 * and the leaderboard, all from each message of the proxy's server-sent events (`…/live?of=`). It never goes blank: when the
 * stream drops or the proxy says its figures are stale, the last ones stay with "reconnecting"
 * and their age, and the stream is opened again until it comes back. Text only (textContent):
 * a donor's name is never read as markup.
 */
// oxlint-disable-next-line import/no-unassigned-import -- the stylesheet is built beside the script (vite.config.ts, display)
import "./display.css";
import type { LiveMessage, Peer, WallEntry } from "../../contract/api";
import { ANONYMOUS } from "../../contract/gala";
import { DISPLAY_WORDS } from "../../contract/display-words";
import { INTL_TAGS } from "../../contract/locale-traits";
import { matchLocale } from "../../contract/locales";
import { toCents } from "../../contract/money";
import { readLive } from "../shared/read-feeds";
import { ageText } from "../shared/age-text";

/** Shown at most this many gifts and peers: what fits the screen at 1280x720 with type read from the back. */
const WALL_SHOWN = 8;
const LEADERS_SHOWN = 5;
/** A stream that dropped is opened again after this long (the browser's own retry aside). */
const REOPEN_MS = 5000;

const root = document.documentElement;
const locale = matchLocale(root.lang) ?? "en";
const t = DISPLAY_WORDS[locale];
/** The tag Intl formats the screen's money and ages with. */
const intlTag = INTL_TAGS[locale] ?? locale;
const main = document.querySelector<HTMLElement>("[data-live]")!;
const api = main.dataset.live!;
/** The feed with the leaderboard in it: one stream, one report read, for every figure on the screen. */
const live = `${api}/live?of=${main.dataset.of ?? "teams"}`;
const $ = (name: string) => document.querySelector<HTMLElement>(`[data-part="${name}"]`)!;

let last: LiveMessage | null = null;
let reached = false;

function money(amount: string, currency: string): string {
  const cents = toCents(amount);
  return new Intl.NumberFormat(intlTag, {
    style: "currency",
    currency,
    maximumFractionDigits: cents % 100 === 0 ? 0 : 2,
  }).format(cents / 100);
}

function element(tag: string, part: string, text: string): HTMLElement {
  const node = document.createElement(tag);
  node.className = part;
  node.textContent = text;
  return node;
}

function showFigures(message: LiveMessage) {
  const { raised, goal, donors, currency } = message.progress;
  const total = $("raised");
  total.textContent = money(raised, currency);
  // Its type is sized by its length too (display.css), so a long total keeps to its column.
  total.style.setProperty("--chars", String(total.textContent.length));
  $("donors").textContent = t.donors(donors);
  const bar = $("bar");
  if (goal !== null && toCents(goal) > 0) {
    const percent = Math.min(100, Math.floor((toCents(raised) * 100) / toCents(goal)));
    $("goal").textContent = t.ofGoal(money(goal, currency));
    $("fill").style.setProperty("--done", `${percent}%`);
    bar.setAttribute("aria-valuenow", String(percent));
    bar.setAttribute("aria-valuetext", `${money(raised, currency)} ${t.ofGoal(money(goal, currency))}`);
    bar.hidden = false;
    if (percent >= 100 && !reached) {
      reached = true;
      document.body.classList.add("reached");
      $("reached").hidden = false;
    }
  } else bar.hidden = true;
  showWall(message.wall, currency);
  if (message.leaders) showLeaders(message.leaders, currency);
}

function showWall(entries: (WallEntry & { credited?: string | null })[], currency: string) {
  const list = $("wall");
  const now = Date.now();
  if (entries.length === 0) return list.replaceChildren(element("li", "empty", t.empty));
  list.replaceChildren(
    ...entries.slice(0, WALL_SHOWN).map((entry) => {
      const item = document.createElement("li");
      item.append(
        element("span", "name", entry.name === ANONYMOUS ? t.anonymous : entry.name),
        element("span", "amount", money(entry.amount, currency)),
        element("span", "when", ageText(entry.at, now, intlTag)),
      );
      if (entry.credited) item.append(element("span", "credited", entry.credited));
      return item;
    }),
  );
}

function showLeaders(leaders: Peer[], currency: string) {
  $("leaders").replaceChildren(
    ...leaders.slice(0, LEADERS_SHOWN).map((peer) => {
      const item = document.createElement("li");
      item.append(
        element("span", "name", peer.name),
        element("span", "amount", money(peer.raised ?? "0.00", currency)),
      );
      return item;
    }),
  );
}

/** The last figures stay; the note says how old they are. */
function reconnecting(on: boolean) {
  const note = $("status");
  note.hidden = !on;
  if (on && last) note.textContent = t.reconnecting(ageText(last.progress.updated_at, Date.now(), intlTag));
  document.body.classList.toggle("offline", on);
}

function open() {
  const source = new EventSource(live);
  source.addEventListener("figures", (event) => {
    const message = readLive(JSON.parse((event as MessageEvent<string>).data) as unknown);
    if (!message) return;
    last = message;
    showFigures(message);
    reconnecting(message.stale);
  });
  source.addEventListener("error", () => {
    reconnecting(true);
    // The browser retries by itself unless the answer was not a stream (a proxy restarting, a 503).
    if (source.readyState === EventSource.CLOSED) setTimeout(open, REOPEN_MS);
  });
}

open();
// "3 minutes ago" moves on even when no gift comes.
setInterval(() => {
  if (!last) return;
  showWall(last.wall, last.progress.currency);
  if (!$("status").hidden) reconnecting(true);
}, 30_000);
