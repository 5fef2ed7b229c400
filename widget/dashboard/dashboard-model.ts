import { batch, signal } from "@preact/signals-core";
import type { DashboardData, VenueState } from "../../contract/dashboard";
import { sendChange } from "./send";

/** The periods the panels show. */
export const PERIODS = ["today", "7d", "30d"] as const;
export type Period = (typeof PERIODS)[number];

/** What the status line says: waiting for the first figures, live as of a time, reconnecting, or signed out. */
export type LiveStatus =
  | { kind: "waiting" }
  | { kind: "live"; at: string }
  | { kind: "reconnecting" }
  | { kind: "signed-out" };

/** The venue button's question waiting for its confirmation, or why an action failed. */
export type VenueNote = { kind: "question"; text: string } | { kind: "failed"; detail: string } | null;

/** What the model needs of the browser (a test gives its own). */
export interface DashboardBrowser {
  /** The page's query (location.search): the view asked for, and a language. */
  search: string;
  fetcher?: typeof fetch;
  openStream?: (url: string) => EventSource;
  /** Writes the view into the address, so a reload shows the same. */
  setAddress?: (query: string) => void;
}

/**
 * The panels' state and actions, as signals: the view (period and campaign), the figures read
 * from GET /dashboard/data.json and then followed live (GET /dashboard/live, server-sent events,
 * every GIVEKIT_DASHBOARD_LIVE_S), the status line, and the venue button's state and actions
 * (POST /dashboard/venue, /dashboard/venue/end, with the page's form token).
 *
 * @example
 * const model = createDashboardModel(main.dataset.formToken ?? "", { search: location.search });
 * await model.follow();
 */
export function createDashboardModel(
  formToken: string,
  {
    search,
    fetcher = fetch,
    openStream = (url) => new EventSource(url),
    setAddress = (query) => history.replaceState(null, "", `?${query}`),
  }: DashboardBrowser,
) {
  const asked = new URLSearchParams(search);
  const askedPeriod = asked.get("period");
  const period = signal<Period>(PERIODS.find((p) => p === askedPeriod) ?? "today");
  const campaign = signal(asked.get("campaign") ?? "");
  /** The campaigns to choose from, as the first figures list them (null until they come). */
  const campaigns = signal<string[] | null>(null);
  const data = signal<DashboardData | null>(null);
  const status = signal<LiveStatus>({ kind: "waiting" });
  const venue = signal<VenueState | null>(null);
  const venueNote = signal<VenueNote>(null);
  const venueHours = signal(6);
  const venueBusy = signal(false);
  let stream: EventSource | null = null;
  /** Counts the views followed: an answer for an older one is dropped. */
  let followed = 0;

  function view(): URLSearchParams {
    const params = new URLSearchParams({ period: period.value });
    if (campaign.value) params.set("campaign", campaign.value);
    return params;
  }

  /** A venue's state drawn: a failure said before goes; a question stays until the network is let through. */
  function showVenue(state: VenueState) {
    venue.value = state;
    const note = venueNote.peek();
    if (note && (note.kind === "failed" || state.allowed)) venueNote.value = null;
  }

  function draw(figures: DashboardData) {
    batch(() => {
      if (campaigns.peek() === null) {
        campaigns.value = figures.campaigns;
        campaign.value = figures.campaign ?? "";
      }
      data.value = figures;
      if (figures.defence.venue) showVenue(figures.defence.venue);
      status.value = { kind: "live", at: figures.at };
    });
  }

  /** Reads the view once, then follows it live; a dropped stream says so and the browser reopens it. */
  async function follow(): Promise<void> {
    stream?.close();
    stream = null;
    const run = ++followed;
    const params = view();
    // The address keeps the view (and a language asked for), so a reload shows the same.
    const shown = new URLSearchParams(params);
    const lang = asked.get("lang");
    if (lang) shown.set("lang", lang);
    setAddress(shown.toString());
    const first = await fetcher(`/dashboard/data.json?${params}`, { credentials: "same-origin" });
    if (run !== followed) return;
    if (first.status === 401) {
      status.value = { kind: "signed-out" };
      return;
    }
    if (first.ok) draw((await first.json()) as DashboardData);
    if (run !== followed) return;
    stream = openStream(`/dashboard/live?${params}`);
    stream.addEventListener("figures", (event) =>
      draw(JSON.parse((event as MessageEvent<string>).data) as DashboardData),
    );
    stream.addEventListener("error", () => {
      status.value = { kind: "reconnecting" };
    });
  }

  /** Sends one of the venue button's actions and shows what it came to. */
  async function venueAction(path: string, body: unknown): Promise<void> {
    venueBusy.value = true;
    try {
      const { res, answer } = await sendChange(path, "POST", body, formToken, fetcher);
      if (res.ok && answer.venue) {
        venueNote.value = null;
        showVenue(answer.venue as VenueState);
      } else if (answer.code === "confirmation_required")
        venueNote.value = { kind: "question", text: String(answer.detail ?? "") };
      else venueNote.value = { kind: "failed", detail: String(answer.detail ?? res.statusText) };
    } finally {
      venueBusy.value = false;
    }
  }

  return {
    period,
    campaign,
    campaigns,
    data,
    status,
    venue,
    venueNote,
    venueHours,
    venueBusy,
    follow,
    /** The view's query (period, campaign), for the CSV links. */
    view,
    setPeriod(next: Period) {
      period.value = next;
      void follow();
    },
    setCampaign(next: string) {
      campaign.value = next;
      void follow();
    },
    /** Lets this network through the circuit breakers for the hours chosen (`confirm`: after the question). */
    allowVenue: (confirm = false) =>
      venueAction(
        "/dashboard/venue",
        confirm ? { hours: venueHours.value, confirm } : { hours: venueHours.value },
      ),
    endVenue: () => venueAction("/dashboard/venue/end", {}),
    /** Stops following (the stream closed). */
    stop() {
      followed++;
      stream?.close();
      stream = null;
    },
  };
}
export type DashboardModel = ReturnType<typeof createDashboardModel>;
