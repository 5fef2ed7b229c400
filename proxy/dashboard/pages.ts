/**
 * The staff dashboard's page and data, behind its sign-in (routes.ts): GET /dashboard (the page:
 * its places, filled by its own script), /dashboard/data.json (every panel's figures),
 * /dashboard/live (the same figures by server-sent events, every GIVEKIT_DASHBOARD_LIVE_S),
 * /dashboard/{table}.csv (one table, as a spreadsheet opens it) and /dashboard/assets/
 * (the script and stylesheet the build made). Nothing inline runs: the page's CSP is the
 * display's.
 */
import { Hono, type Context } from "hono";
import { streamSSE } from "hono/streaming";
import type { DashboardData, RoomFigures } from "../../contract/dashboard";
import { campaignScope, type CampaignDirectory } from "../campaign/directory";
import type { AppEnv } from "../context";
import { DISPLAY_CSP, escapeHtml } from "../campaign/display-page";
import type { GalaFeed } from "../campaign/gala-feed";
import { ProblemError } from "../problem";
import { dashboardAssets } from "./assets";
import type { Counters, GivingCount, Store } from "../store";
import { ACCOUNT, OPS_ANSWER_CLASSES as UPSTREAM_CLASSES } from "./ops-counts";
import {
  defencePanel,
  funnel,
  giving,
  health,
  HOUR_MS,
  hoursOf,
  PERIODS,
  segments,
  type Period,
} from "./figures";
import { venueRoutes, venueState, type VenueDeps } from "./venue";

const ASSETS = { "dashboard.js": "text/javascript", "dashboard.css": "text/css" } as const;
/**
 * The giving counts are read a UTC day at a time, the event loop given back between (a day's
 * attempts are summed in one statement: tens of ms at a million attempts a month on SQLite,
 * bench/dashboard-tick.ts). A whole day ended an hour ago with no attempt still sending or
 * unknown cannot change (an attempt leaves only those states), so its counts are kept in memory
 * and a tick reads only today and the period's first, partial day.
 */
export const DAY_HOURS = 24;
/** Settled days kept: the longest period's, and one more. */
const SETTLED_DAYS_KEPT = 32;

/** How long a view waits for a campaign's first figures from the room display's feed. */
export const ROOM_WAIT_MS = 1000;
const NOT_YET = Symbol("not yet");
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** The tables a CSV is offered of. */
export const TABLES = [
  "room",
  "funnel",
  "channels",
  "devices",
  "giving",
  "defence",
  "refusals",
  "upstream",
] as const;
type Table = (typeof TABLES)[number];

/** The page's languages; the first is the default. */
const LANGUAGES = ["en", "es"] as const;

function languageOf(c: Context<AppEnv>): (typeof LANGUAGES)[number] {
  const asked = c.req.query("lang");
  if (asked === "es" || asked === "en") return asked;
  return /^es\b/i.test(c.req.header("accept-language") ?? "") ? "es" : "en";
}

/** One CSV cell: quoted when it must be, and never a formula a spreadsheet would run. */
function cell(value: unknown): string {
  const text = String(value);
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Each table's rows, its head first: the numbers the page shows. */
const TABLE_ROWS: Record<Table, (data: DashboardData) => unknown[][]> = {
  room: (data) => [
    ["campaign", "raised", "goal", "donors", "currency", "updated_at", "failing"],
    ...data.giving.room.map((r) => [
      r.campaign,
      r.progress?.raised ?? "",
      r.progress?.goal ?? "",
      r.progress?.donors ?? "",
      r.progress?.currency ?? "",
      r.progress?.updated_at ?? "",
      r.failing,
    ]),
  ],
  funnel: (data) => [
    ["step", "reached", "left", "share_left", "reasons"],
    ...data.funnel.map((s) => [
      s.step,
      s.reached,
      s.left,
      s.shareLeft.toFixed(4),
      s.reasons.map((r) => `${r.reason}:${r.count}`).join(" "),
    ]),
  ],
  channels: (data) => segmentTable("channel", data.channels),
  devices: (data) => segmentTable("device", data.devices),
  giving: (data) => [
    ["hour", "gifts", "amount"],
    ...data.giving.perHour.map((h) => [h.hour, h.gifts, (h.cents / 100).toFixed(2)]),
  ],
  defence: (data) => [
    ["hour", "challenges_asked", "challenges_solved", "refused", "declined"],
    ...data.defence.perHour.map((h) => [h.hour, h.asked, h.solved, h.refused, h.declined]),
  ],
  refusals: (data) => [["reason", "count"], ...data.defence.refusals.map((r) => [r.reason, r.count])],
  upstream: (data) => [
    ["hour", ...UPSTREAM_CLASSES, "p50_ms", "p95_ms"],
    ...data.health.upstream.perHour.map((h) => [
      h.hour,
      ...UPSTREAM_CLASSES.map((k) => h.answers[k] ?? 0),
      h.latencyMs.p50 ?? "",
      h.latencyMs.p95 ?? "",
    ]),
  ],
};

function segmentTable(first: string, list: DashboardData["channels"]): unknown[][] {
  return [
    [first, "shown", "thanked", "share_finished", "sent", "declined"],
    ...list.map((s) => [s.name, s.shown, s.thanked, s.shareFinished.toFixed(4), s.sent, s.declined]),
  ];
}

/** One table of a view as CSV (RFC 4180, CRLF). */
function csv(table: Table, data: DashboardData): string {
  return (
    TABLE_ROWS[table](data)
      .map((row) => row.map(cell).join(","))
      .join("\r\n") + "\r\n"
  );
}

export function dashboardPages(deps: {
  store: Store;
  /** Where the defence's circuit breakers keep their state (this process's, or the shared store's). */
  counters?: Pick<Counters, "notesUnder">;
  campaigns: CampaignDirectory;
  /** The room display's feed (proxy/campaign/gala-feed.ts): the giving panel's figures come from it. */
  feed: Pick<GalaFeed, "live">;
  widgetDir: string;
  liveS: number;
  draining: () => boolean;
  /** The venue button's parts (venue.ts); without them the panel has no button. */
  venue?: Omit<VenueDeps, "now">;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  const served = deps.campaigns.all.map(campaignScope);

  /** The period and campaign a request asks for (none: today, every campaign); anything else is 400. */
  function viewOf(c: Context<AppEnv>): { period: Period; campaign: string | undefined } {
    const period = (c.req.query("period") ?? "today") as Period;
    const campaign = c.req.query("campaign") || undefined;
    const errors: Record<string, string[]> = {};
    if (!PERIODS.includes(period)) errors.period = [`A period is one of ${PERIODS.join(", ")}.`];
    if (campaign !== undefined && !served.includes(campaign))
      errors.campaign = ["Not a campaign served here."];
    if (Object.keys(errors).length > 0) throw new ProblemError("validation_failed", "No such view.", errors);
    return { period, campaign };
  }

  /**
   * Each campaign of the view as its room display shows it: the display's own feed, read the
   * display's way. A campaign with no figures yet (its first report read under way) is waited for
   * ROOM_WAIT_MS at most, then shown as not known yet: the read goes on for the next tick.
   */
  async function room(campaign: string | undefined): Promise<RoomFigures[]> {
    const shown = deps.campaigns.all.filter((c) => campaign === undefined || campaignScope(c) === campaign);
    const reads = await Promise.allSettled(
      shown.map((c) => {
        const read = deps.feed.live(c);
        read.catch(() => undefined);
        return Promise.race([read, sleep(ROOM_WAIT_MS).then(() => NOT_YET)]);
      }),
    );
    return reads.map((read, index) => {
      const live = read.status === "fulfilled" && typeof read.value !== "symbol" ? read.value : null;
      return {
        campaign: campaignScope(shown[index]!),
        progress: live?.progress ?? null,
        failing: read.status === "rejected" || (live?.failing ?? false),
      };
    });
  }

  /** Settled days' giving counts (see DAY_HOURS), by the day's first hour. */
  const settledDays = new Map<number, GivingCount[]>();

  /** The period's giving counts: a day at a time, the settled days from memory. */
  async function givingByDay(hours: { fromHour: number; toHour: number }): Promise<GivingCount[]> {
    const counts: GivingCount[] = [];
    const lastHour = Math.floor(now() / HOUR_MS);
    for (const key of settledDays.keys())
      if (key < lastHour - SETTLED_DAYS_KEPT * DAY_HOURS) settledDays.delete(key);
    let from = hours.fromHour;
    while (from <= hours.toHour) {
      const dayStart = Math.floor(from / DAY_HOURS) * DAY_HOURS;
      const toHour = Math.min(hours.toHour, dayStart + DAY_HOURS - 1);
      const whole = from === dayStart && toHour === dayStart + DAY_HOURS - 1;
      let day = whole ? settledDays.get(dayStart) : undefined;
      if (!day) {
        if (from > hours.fromHour) await new Promise<void>((resolve) => setImmediate(resolve));
        day = await deps.store.givingCounts({ fromHour: from, toHour });
        // Whole, ended an hour ago at least (another proxy's clock may lag), nothing left to settle.
        if (
          whole &&
          toHour < lastHour - 1 &&
          day.every((c) => c.state === "succeeded" || c.state === "declined")
        )
          settledDays.set(dayStart, day);
      }
      counts.push(...day);
      from = toHour + 1;
    }
    return counts;
  }

  // Every read below is bounded whatever the store holds: counts per hour (GROUP BY in the store
  // for the attempts, settled days from memory), never a row per gift or per beacon.
  async function figures(
    view: { period: Period; campaign: string | undefined },
    /** The looking staff member's address: the venue button's network (never shown). */
    ip?: string,
  ): Promise<DashboardData> {
    const at = now();
    const hours = hoursOf(view.period, at);
    const [counts, ops, givingCounts, rooms, outbox, defence, storeUp, unknown, breakerNotes] =
      await Promise.all([
        deps.store.formCounts({ ...hours, campaign: view.campaign }),
        deps.store.opsCounts({ ...hours, campaign: view.campaign }),
        givingByDay(hours),
        room(view.campaign),
        deps.store.webhookStats(),
        deps.store.defenceStates(),
        deps.store.healthy(),
        deps.store.unknownAttempts(),
        deps.counters?.notesUnder("breaker:").catch(() => []) ?? [],
      ]);
    const openNotes = breakerNotes.filter((note) => note.value !== "");
    const heldClients = openNotes
      .filter((note) => note.key.startsWith("breaker:client:"))
      .map((note) => note.key.slice("breaker:".length));
    const venue =
      deps.venue && ip !== undefined ? await venueState(deps.venue, ip, heldClients, at) : undefined;
    return {
      period: view.period,
      campaign: view.campaign ?? null,
      campaigns: served,
      at: new Date(at).toISOString(),
      funnel: funnel(counts),
      channels: segments(counts, "channel"),
      devices: segments(counts, "device"),
      giving: giving(givingCounts, hours, view.campaign, rooms),
      // A campaign's view leaves out the account's own rows (a card refused before naming its campaign).
      defence: {
        ...defencePanel({
          counts: view.campaign === undefined ? ops : ops.filter((row) => row.campaign !== ACCOUNT),
          hours,
          defence,
          breakers: { notes: openNotes, campaign: view.campaign },
          now: at,
        }),
        ...(venue ? { venue } : {}),
      },
      health: health({ store: storeUp, unknown, outbox, defence, ops, hours, now: at }),
    };
  }

  const app = new Hono<AppEnv>();
  if (deps.venue) app.route("/", venueRoutes({ ...deps.venue, now }));
  return app
    .get("/", (c) => {
      const lang = languageOf(c);
      return c.html(
        `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>givekit dashboard</title>
<link rel="stylesheet" href="/dashboard/assets/dashboard.css">
<script type="module" src="/dashboard/assets/dashboard.js"></script>
</head>
<body>
<main id="dashboard" data-lang="${escapeHtml(lang)}" data-live-s="${deps.liveS}" data-form-token="${escapeHtml(c.get("dashboardStaff")?.formToken ?? "")}"><h1>givekit</h1><p id="status" role="status"></p></main>
</body>
</html>
`,
        200,
        {
          "Content-Security-Policy": DISPLAY_CSP,
          "Referrer-Policy": "no-referrer",
          "Cache-Control": "no-store",
        },
      );
    })
    .get("/data.json", async (c) =>
      c.json(await figures(viewOf(c), c.get("clientIp")), 200, { "Cache-Control": "no-store" }),
    )
    .get("/live", async (c) => {
      const view = viewOf(c);
      const ip = c.get("clientIp");
      const first = await figures(view, ip);
      return streamSSE(c, async (stream) => {
        const state = { open: true };
        stream.onAbort(() => {
          state.open = false;
        });
        let data = first;
        while (state.open && !deps.draining()) {
          await stream.writeSSE({ event: "figures", data: JSON.stringify(data) });
          await stream.sleep(deps.liveS * 1000);
          if (state.open) data = await figures(view, ip);
        }
      });
    })
    .get("/assets/:name", dashboardAssets(deps.widgetDir, ASSETS, "dashboard"))
    .get("/:file{[a-z]+\\.csv}", async (c) => {
      const table = c.req.param("file").replace(/\.csv$/, "") as Table;
      if (!TABLES.includes(table)) throw new ProblemError("not_found", "No such table.");
      const view = viewOf(c);
      return c.body(csv(table, await figures(view)), 200, {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="givekit-${table}-${view.period}.csv"`,
        "Cache-Control": "no-store",
      });
    });
}
