/**
 * The staff dashboard's figures as GET /dashboard/data.json and /dashboard/live send them
 * (proxy/dashboard/figures.ts makes them; the page's script, widget/dashboard/, draws them).
 * Types only: nothing here reaches a bundle.
 */
import type { Progress } from "./api";
import type { FormStep } from "./form-steps";

export interface FunnelStep {
  step: FormStep;
  /** Forms that reached this step. */
  reached: number;
  /** Of those, how many did not reach the next (0 at the last step). */
  left: number;
  /** left / reached, 0 when none reached it. */
  shareLeft: number;
  /** Why donors stopped here, where the form knows (reason → count), largest first. */
  reasons: { reason: string; count: number }[];
}

export interface Segment {
  /** The channel or the device class. */
  name: string;
  shown: number;
  thanked: number;
  /** thanked / shown, 0 when none was shown. */
  shareFinished: number;
  /** Gifts sent (a card that reached the proxy) and cards declined: counted by the proxy, never a beacon. */
  sent: number;
  declined: number;
}

export interface GivingHour {
  /** The hour's start, ISO 8601 (UTC). */
  hour: string;
  gifts: number;
  /** Charged, fee included, in cents. */
  cents: number;
}

/**
 * A campaign's figures as its room display shows them, from the same feed (the progress of the
 * fundraising service's report, proxy/campaign/gala-feed.ts): every gift, through givekit or not.
 */
export interface RoomFigures {
  /** "71777/HOPE". */
  campaign: string;
  /** What the display shows; null while the feed has no figures yet (the first report read failed). */
  progress: Progress | null;
  /** The last report read failed: these are the last good figures. */
  failing: boolean;
}

export interface Giving {
  /** Each campaign of the view as its room display shows it now (not limited to the period). */
  room: RoomFigures[];
  /** Gifts that went through givekit in the period (the proxy's own attempts). */
  gifts: number;
  cents: number;
  averageCents: number;
  /** Gifts with a recurring frequency / gifts. */
  recurringShare: number;
  /** Gifts that covered the fee / gifts. */
  feeCoveredShare: number;
  declined: number;
  perHour: GivingHour[];
}

export interface Health {
  store: boolean;
  /** Donations sent with no answer yet, waiting for the reconciler. */
  unknownOutcomes: number;
  webhooksWaiting: number;
  webhooksDead: number;
  /** Endpoints whose deliveries fail, with since when. */
  webhooksFailing: { endpoint: string; since: string }[];
  /** Defence periods open now (a scope and the signal that opened it). */
  defenceOpen: { scope: string; signal: string; until: string }[];
  upstream: UpstreamHealth;
}

/** Times read from bucketed counts: each quantile is its bucket's upper bound (ms), null when none was counted. */
export interface Quantiles {
  p50: number | null;
  p95: number | null;
}

export interface DefenceHour {
  /** The hour's start, ISO 8601 (UTC). */
  hour: string;
  asked: number;
  solved: number;
  refused: number;
  declined: number;
}

/** What the defence did, and what it cost real donors. */
export interface DefencePanel {
  /** Cards asked to solve a challenge first. */
  challengesAsked: number;
  /** Challenges solved and accepted. */
  challengesSolved: number;
  /** From a challenge asked to its accepted solution: what donors paid. */
  solveMs: Quantiles;
  /** Cards refused before the network, by reason (a problem code, or the bot filter's name), largest first. */
  refusals: { reason: string; count: number }[];
  /** Cards that reached the network and were declined. */
  declined: number;
  perHour: DefenceHour[];
  /** Defence periods (scrutiny) open now: a scope and the signal that opened it. */
  scrutinyOpen: { scope: string; signal: string; until: string }[];
  /** Circuit breakers open now: a campaign's by name, the clients' as one count (never an address). */
  breakersOpen: { name: string; until: string }[];
  /** The network of the staff member looking (the venue's), never its address; absent in a CSV. */
  venue?: VenueState;
  /** People whose cards the breakers hold now (held in the last 20 s), and how long the one held longest has waited, in seconds. */
  heldNow: { people: number; longestS: number };
}

/** The venue button's facts: the looking staff member's own network, as the proxy sees it. */
export interface VenueState {
  /** Its breaker holds cards now, until then (ISO 8601); null when it does not. */
  heldUntil: string | null;
  /** Clients whose breaker holds cards now, this network included. */
  clientsHeld: number;
  /** Cards the breakers held from this network in their window, each card once. */
  cardsHeld: number;
  /** Cards the breakers held in their window from the other clients held now, each card once ("12 cards waiting at one client"). */
  cardsHeldElsewhere: number;
  /** An allowance that lets it through now: its end and who pressed (the invite's name, or the command line). */
  allowed: { until: string; by: string | null } | null;
}

/** What the venue button sends (POST /dashboard/venue). */
export interface VenueRequest {
  /** 1 to 24. */
  hours: number;
  /** The second confirmation, when the network is a known tester's. */
  confirm?: boolean;
}

/** The hours the venue button lets a network through for. */
export const VENUE_HOURS = { min: 1, max: 24 } as const;
/** The header the dashboard's own page sends its form token in. */
export const DASHBOARD_FORM_HEADER = "X-Givekit-Form";

export interface UpstreamHour {
  hour: string;
  /** Calls by how they ended ("answered", "refused", "failed", "unreachable", "unknown"). */
  answers: Record<string, number>;
  latencyMs: Quantiles;
}

/** The upstream as the donor-facing calls (tokenize, donate, subscribe) met it. */
export interface UpstreamHealth {
  /** Calls by "operation:class", largest first. */
  answers: { label: string; count: number }[];
  latencyMs: Quantiles;
  perHour: UpstreamHour[];
}

/** Every panel of one view: a period, and one campaign or all. */
export interface DashboardData {
  period: "today" | "7d" | "30d";
  /** "71777/HOPE", or null for every campaign. */
  campaign: string | null;
  campaigns: string[];
  /** When these figures were made (ISO 8601). */
  at: string;
  funnel: FunnelStep[];
  channels: Segment[];
  devices: Segment[];
  giving: Giving;
  defence: DefencePanel;
  health: Health;
}
