/**
 * The venue button of the dashboard's defence panel: "Let this network through" for 1 to 24 hours
 * lets the signed-in staff member's own client (the venue's address as the proxy sees it, never
 * shown) through the circuit breakers, as `givekit defence allow` does (an allowance in the
 * store's shared notes, proxy/defence/allowances.ts), and "End now" ends it. Each is logged with
 * the invite's name. A network whose breaker opened on declines in the last hour (a known tester)
 * is let through only on a second confirmation naming what it held; two presses at once write
 * one allowance.
 */
import { isIP } from "node:net";
import { Hono } from "hono";
import type { Logger } from "pino";
import { VENUE_HOURS, type VenueState } from "../../contract/dashboard";
import { rateLimitKey } from "../client-ip";
import type { AppEnv } from "../context";
import {
  allowanceOf,
  allowRange,
  currentAllowances,
  endAllowance,
  type Allowance,
} from "../defence/allowances";
import { breakerScopes } from "../defence/breaker";
import type { Defence } from "../defence/defence";
import { jsonBody } from "../middleware/json-body";
import { ProblemError } from "../problem";
import type { Counters, SharedNotes } from "../store";

const HOUR_MS = 3_600_000;
/** How long a press keeps a second one from writing the same allowance again. */
const PRESS_MS = 5000;

/** The range a client's allowance covers: its address, or its /64 for IPv6 (its breaker's scope). */
export const venueRange = (ip: string) => (isIP(ip) === 6 ? rateLimitKey(ip) : `${ip}/32`);

const iso = (ms: number) => new Date(ms).toISOString();
const clock = (ms: number) => `${iso(ms).slice(11, 16)} UTC`;

export interface VenueDeps {
  defence: Pick<Defence, "allowances" | "knownTester" | "openBreakers" | "cardsHeldAt">;
  /** Where allowances are noted (the store's shared notes, which the command line reads too). */
  notes: SharedNotes;
  /** The counters a press is claimed in (two staff at once). */
  counters: Pick<Counters, "add" | "set">;
  logger: Logger;
  now?: () => number;
}

/**
 * What the venue button shows to the staff member at `ip`; `heldClients`: the client scopes
 * (`client:…`) whose breaker is open now, this network's among them or not.
 */
export async function venueState(
  deps: Pick<VenueDeps, "defence" | "notes">,
  ip: string,
  heldClients: readonly string[],
  now: number,
): Promise<VenueState> {
  const [own] = breakerScopes(ip);
  const [open, allowances, cardsHeld, cardsHeldElsewhere] = await Promise.all([
    deps.defence.openBreakers([own!]).catch(() => []),
    currentAllowances(deps.notes).catch((): Allowance[] => []),
    deps.defence.cardsHeldAt([own!]).catch(() => 0),
    deps.defence.cardsHeldAt(heldClients.filter((client) => client !== own)).catch(() => 0),
  ]);
  const allowed = allowanceOf(
    allowances.filter((each) => each.until > now),
    ip,
  );
  const held = open[0]?.state ?? null;
  return {
    heldUntil: held ? iso(Math.max(held.until, now)) : null,
    clientsHeld: heldClients.length,
    cardsHeld,
    cardsHeldElsewhere,
    allowed: allowed ? { until: iso(allowed.until), by: allowed.by ?? null } : null,
  };
}

/** The button's body: hours from 1 to 24, and the second confirmation; nothing else. */
function parsePress(body: unknown): { hours: number; confirm: boolean } {
  const errors: Record<string, string[]> = {};
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw new ProblemError("validation_failed", "Send { hours, confirm? }.");
  const fields = body as Record<string, unknown>;
  for (const key of Object.keys(fields))
    if (key !== "hours" && key !== "confirm") errors[key] = ["Not a field of the venue button."];
  const hours = fields.hours;
  if (
    typeof hours !== "number" ||
    !Number.isInteger(hours) ||
    hours < VENUE_HOURS.min ||
    hours > VENUE_HOURS.max
  )
    errors.hours = [`Let a network through for ${VENUE_HOURS.min} to ${VENUE_HOURS.max} whole hours.`];
  if (fields.confirm !== undefined && typeof fields.confirm !== "boolean")
    errors.confirm = ["true or false."];
  if (Object.keys(errors).length > 0)
    throw new ProblemError("validation_failed", "The venue button's request is not valid.", errors);
  return { hours: hours as number, confirm: fields.confirm === true };
}

/**
 * @example
 * pages.route("/", venueRoutes({ defence, notes: store.sharedNotes, counters, logger }));
 * // POST /dashboard/venue {"hours": 6} → 201 { venue }; POST /dashboard/venue/end → 200 { venue }
 */
export function venueRoutes(deps: VenueDeps) {
  const now = deps.now ?? Date.now;
  const living = async (ip: string) =>
    allowanceOf(
      (await currentAllowances(deps.notes)).filter((each) => each.until > now()),
      ip,
    );
  const answer = async (ip: string, extra: Record<string, unknown> = {}) => ({
    venue: await venueState(deps, ip, [], now()),
    ...extra,
  });

  return new Hono<AppEnv>()
    .post("/venue", jsonBody(4096), async (c) => {
      const press = parsePress(c.get("body"));
      const ip = c.get("clientIp");
      const staff = c.get("dashboardStaff");
      const range = venueRange(ip);
      if (await living(ip)) return c.json(await answer(ip, { already: true }), 200);
      const tester = await deps.defence.knownTester(ip);
      if (tester && !press.confirm)
        throw new ProblemError(
          "confirmation_required",
          `A card tester was held at this network: its circuit breaker opened at ${clock(tester.openedAt)} on ${tester.figure} declined card${tester.figure === 1 ? "" : "s"}. Letting the network through lets that tester's cards past it too (the card-number and campaign breakers still bound them). Confirm to let it through anyway.`,
          undefined,
          { "Cache-Control": "no-store" },
          { held: { since: iso(tester.openedAt), why: tester.why, declined: tester.figure } },
        );
      const pressKey = `venue-press:${range}`;
      const [claim] = await deps.counters.add([{ key: pressKey, points: 1, ttlMs: PRESS_MS }]);
      if (claim!.points > 1) {
        // Another member of staff pressed a moment ago: theirs is the one allowance.
        for (let tries = 0; tries < 20 && !(await living(ip)); tries++)
          await new Promise((resolve) => setTimeout(resolve, 50));
        if (await living(ip)) return c.json(await answer(ip, { already: true }), 200);
        throw new ProblemError(
          "request_in_progress",
          "Someone else is letting this network through right now: the panel shows it in a moment.",
          undefined,
          { "Retry-After": "1", "Cache-Control": "no-store" },
        );
      }
      const allowance = await allowRange(deps.notes, range, press.hours * HOUR_MS, staff.name);
      deps.logger.warn(
        {
          event: "venue_allow",
          by: staff.name,
          hours: press.hours,
          until: iso(allowance.until),
          ...(tester ? { known_tester_confirmed: true } : {}),
        },
        "dashboard: a member of staff let their network through the circuit breakers",
      );
      await deps.defence.allowances.refresh();
      return c.json(await answer(ip), 201, { "Cache-Control": "no-store" });
    })
    .post("/venue/end", async (c) => {
      const ip = c.get("clientIp");
      const staff = c.get("dashboardStaff");
      const allowed = await living(ip);
      if (!allowed) throw new ProblemError("not_found", "This network is not let through now.");
      await endAllowance(deps.notes, allowed.range);
      await deps.counters.set([{ key: `venue-press:${venueRange(ip)}`, points: 0, ttlMs: 1 }]);
      deps.logger.warn(
        { event: "venue_allow_ended", by: staff.name, was_by: allowed.by ?? "givekit defence allow" },
        "dashboard: a member of staff ended their network's allowance through the circuit breakers",
      );
      await deps.defence.allowances.refresh();
      return c.json(await answer(ip), 200, { "Cache-Control": "no-store" });
    });
}
