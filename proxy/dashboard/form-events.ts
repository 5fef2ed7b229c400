/**
 * POST /v1/form-events: the donate form's beacons (contract/form-steps.ts), counted for the staff
 * dashboard without tracking anyone. A beacon counts only under a good form session bound to a
 * served campaign; each of a session's steps (and reasons) is counted once, however often it is
 * sent; what is kept is a count per campaign, hour, step, reason, channel and device class, and
 * nothing of the session, the address, the page or the browser. A beacon is what
 * navigator.sendBeacon sends: text/plain (or a Blob's type, or none), JSON inside.
 */
import { createHmac } from "node:crypto";
import { Hono } from "hono";
import {
  countedChannel,
  formEventsProblems,
  FORM_EVENTS_BODY_MAX,
  type FormEventsBody,
} from "../../contract/form-steps";
import { BodyTooLargeError, decodeUtf8, readBody } from "../../http/body";
import { rateLimitKey } from "../client-ip";
import { campaignScope, type CampaignDirectory } from "../campaign/directory";
import type { DashboardConfig } from "../config";
import type { AppEnv } from "../context";
import type { FormSessions } from "../defence/form-session";
import { parseStrictJson } from "../middleware/json-body";
import { rateLimited, retryAfterS } from "../middleware/rate-limit";
import { ProblemError } from "../problem";
import type { Counters, FormCountStore, FormStepCount } from "../store";
import { formMarkKey, type FormOutcomes } from "./form-outcomes";

export const FORM_EVENTS_PATH = "/v1/form-events";
export const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;
/** The body types a beacon may carry its JSON in: sendBeacon's string (text/plain), a Blob's, or none. */
const BEACON_TYPES = new Set(["", "text/plain", "application/json"]);

const refused = (problems: Record<string, string[]>) =>
  new ProblemError("validation_failed", "These events cannot be counted.", problems);

export function formEventRoutes(deps: {
  store: FormCountStore;
  counters: Counters;
  formSessions: FormSessions;
  campaigns: CampaignDirectory;
  /** The proxy's signing secret, from which the flood bucket's key is derived. */
  secret: string;
  config: DashboardConfig;
  /** Where a session's channel and device are noted for the outcomes the proxy counts itself. */
  outcomes?: Pick<FormOutcomes, "noteSegment">;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  const { burst, perMin } = deps.config.formEvents;
  // The flood bucket is named by a keyed hash of the client, so not even it holds an address.
  const tagKey = createHmac("sha256", deps.secret).update("givekit form events").digest();
  const clientTag = (ip: string) =>
    createHmac("sha256", tagKey).update(rateLimitKey(ip)).digest("base64url").slice(0, 16);
  const served = new Set(deps.campaigns.all.map(campaignScope));

  return new Hono<AppEnv>().post(FORM_EVENTS_PATH, async (c) => {
    // Counting keeps no address: not even the request's own log line has it.
    c.set("logFields", { ...c.get("logFields"), ip: null });
    const type = (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (!BEACON_TYPES.has(type))
      throw new ProblemError(
        "unsupported_media_type",
        "Send the events as JSON (text/plain or application/json).",
      );
    const bytes = await readBody(c, FORM_EVENTS_BODY_MAX).catch((error: unknown) => {
      throw error instanceof BodyTooLargeError ? new ProblemError("payload_too_large", error.message) : error;
    });
    const text = decodeUtf8(bytes);
    if (text === null || text.trim() === "")
      throw new ProblemError("malformed_json", "The body is not JSON.");
    const body = parseStrictJson(text);
    const problems = formEventsProblems(body);
    if (Object.keys(problems).length > 0) throw refused(problems);
    const beacon = body as FormEventsBody;

    // A flood from one address is shed before it costs the store anything.
    const turn = await deps.counters.take({
      key: `bucket:form-events:${clientTag(c.get("clientIp"))}`,
      burst,
      intervalMs: MINUTE_MS / perMin,
    });
    if (!turn.allowed) throw rateLimited(retryAfterS(turn));

    const session = deps.formSessions.facts(beacon.form_session, c.get("clientIp"));
    const lifeMs = deps.formSessions.lifeLeftMs(beacon.form_session);
    if (!session || lifeMs <= 0)
      throw refused({ form_session: ["Not a form session of this proxy, or no longer a good one."] });
    if (!served.has(session.campaign))
      throw new ProblemError("campaign_not_served", "This campaign is not served here.");

    // Each step and reason once per session: the marks name the session's random id only, and
    // are forgotten with the session. What only the proxy can know (a gift sent, a thank-you, a
    // decline…) is counted from its own outcomes (form-outcomes.ts): a beacon naming it was
    // refused above (formEventsProblems).
    const events = [...new Map(beacon.events.map((e) => [`${e.step}:${e.reason}`, e])).values()];
    const channel = countedChannel(beacon.channel);
    await deps.outcomes?.noteSegment(session.id, channel, beacon.device);
    const marks = await deps.counters.add(
      events.map((e) => ({
        key: formMarkKey(session.id, e.step, e.reason),
        points: 1,
        ttlMs: lifeMs,
      })),
    );
    const hour = Math.floor(now() / HOUR_MS);
    const counts: FormStepCount[] = events
      .filter((_, index) => marks[index]!.points === 1)
      .map((e) => ({
        campaign: session.campaign,
        hour,
        step: e.step,
        reason: e.reason,
        channel,
        device: beacon.device,
        count: 1,
      }));
    await deps.store.addFormCounts(counts, deps.config.channels);
    c.set("logFields", { ...c.get("logFields"), counted: counts.length });
    return c.body(null, 204, { "Cache-Control": "no-store" });
  });
}
