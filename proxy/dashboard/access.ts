/**
 * Who may open the staff dashboard. `givekit dashboard invite` makes a link holding a signed
 * invite (a name for the log, its end, a random id, the generation it belongs to); the link is
 * spent on first use (the store remembers its id until it ends) and sets a session cookie, signed
 * with another key, holding the same name, end and generation. `givekit dashboard revoke` moves
 * the store's generation on: every session and unused invite of an older one is refused.
 * Nothing here holds a secret of the proxy's in clear; both keys derive from its signing secret.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { DashboardAccessStore } from "../store";

/** The session cookie's name; its path is DASHBOARD_PATH, so no other page of the proxy receives it. */
export const SESSION_COOKIE = "givekit_dashboard";
export const DASHBOARD_PATH = "/dashboard";
/** The longest an invite (and the session it starts) may last: `--for` at most a week. */
export const INVITE_MAX_MS = 7 * 24 * 3_600_000;
/** The longest name an invite may carry (it is logged with each sign-in). */
export const INVITE_NAME_MAX = 60;
const NAME_PATTERN = /^[\p{L}\p{N} .,'&()-]{1,60}$/u;

/** Why a link or a cookie is refused (the log's word; the page says only "sign in again"). */
export type AccessRefusal = "missing" | "forged" | "expired" | "revoked" | "spent";

interface Grant {
  /** Who it was made for ("events desk"), as the operator typed it. */
  name: string;
  /** Its end, ms since the epoch. */
  until: number;
  /** The store's generation when it was made. */
  generation: number;
  /** The invite's random id (a session keeps its invite's). */
  id: string;
}

const mac = (key: Buffer, body: string) => createHmac("sha256", key).update(body).digest("base64url");

/** A grant as a link or cookie holds it: its fields as base64url JSON, and their HMAC under `key`. */
function sign(key: Buffer, grant: Grant): string {
  const body = Buffer.from(
    JSON.stringify({ n: grant.name, u: grant.until, g: grant.generation, i: grant.id }),
  ).toString("base64url");
  return `${body}.${mac(key, body)}`;
}

/** Whether `name` may name an invite: letters, digits, spaces and plain punctuation, 1 to 60. */
export const isInviteName = (name: string) => NAME_PATTERN.test(name);

/**
 * @example
 * const access = createDashboardAccess({ secret, store });
 * const token = await access.invite("events desk", 12 * 3_600_000); // the link's ?invite=
 * const signedIn = await access.signIn(token); // { cookie, name, until } once; "spent" after
 * await access.check(signedIn.cookie); // { name, until } while it holds, else why not
 */
export function createDashboardAccess(deps: {
  secret: string;
  store: DashboardAccessStore;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  const keyOf = (purpose: string) => createHmac("sha256", deps.secret).update(purpose).digest();
  const inviteKey = keyOf("givekit dashboard invites");
  const sessionKey = keyOf("givekit dashboard sessions");
  const formKey = keyOf("givekit dashboard forms");

  async function read(key: Buffer, text: unknown): Promise<Grant | AccessRefusal> {
    if (typeof text !== "string" || text === "") return "missing";
    const [body, given, ...rest] = text.split(".");
    if (!body || !given || rest.length > 0 || text.length > 1000) return "forged";
    const expected = Buffer.from(mac(key, body));
    const got = Buffer.from(given);
    if (expected.length !== got.length || !timingSafeEqual(expected, got)) return "forged";
    let fields: { n?: unknown; u?: unknown; g?: unknown; i?: unknown };
    try {
      fields = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as typeof fields;
    } catch {
      return "forged";
    }
    if (
      typeof fields.n !== "string" ||
      typeof fields.u !== "number" ||
      typeof fields.g !== "number" ||
      typeof fields.i !== "string"
    )
      return "forged";
    const grant: Grant = { name: fields.n, until: fields.u, generation: fields.g, id: fields.i };
    if (grant.until <= now()) return "expired";
    if (grant.generation !== (await deps.store.dashboardGeneration())) return "revoked";
    return grant;
  }

  return {
    /** A signed invite for `name`, good for `forMs` from now (at most INVITE_MAX_MS). */
    async invite(name: string, forMs: number): Promise<string> {
      if (!isInviteName(name)) throw new RangeError("an invite's name is 1 to 60 letters, digits and spaces");
      if (!(forMs > 0 && forMs <= INVITE_MAX_MS))
        throw new RangeError("an invite lasts from a minute to 7 days");
      return sign(inviteKey, {
        name,
        until: now() + forMs,
        generation: await deps.store.dashboardGeneration(),
        id: randomBytes(16).toString("base64url"),
      });
    },
    /** Spends an invite: the session cookie's value (until the invite's end), or why not. */
    async signIn(invite: unknown): Promise<{ cookie: string; name: string; until: number } | AccessRefusal> {
      const grant = await read(inviteKey, invite);
      if (typeof grant === "string") return grant;
      if (!(await deps.store.spendDashboardInvite(grant.id, grant.until))) return "spent";
      return { cookie: sign(sessionKey, grant), name: grant.name, until: grant.until };
    },
    /**
     * The token the dashboard's own page sends with each action (beside the Strict cookie): made
     * from the session's cookie, so a page of another site, which cannot read ours, cannot send it.
     */
    formToken: (cookie: string) => mac(formKey, cookie),
    /** Whether `given` is this session's form token. */
    isFormToken(cookie: string, given: unknown): boolean {
      if (typeof given !== "string") return false;
      const expected = Buffer.from(mac(formKey, cookie));
      const got = Buffer.from(given);
      return expected.length === got.length && timingSafeEqual(expected, got);
    },
    /** A session cookie's name and end while it holds, else why not. */
    async check(cookie: unknown): Promise<{ name: string; until: number } | AccessRefusal> {
      const grant = await read(sessionKey, cookie);
      return typeof grant === "string" ? grant : { name: grant.name, until: grant.until };
    },
  };
}

export type DashboardAccess = ReturnType<typeof createDashboardAccess>;

/**
 * `--for` as an operator writes it: `12h`, `90m`, `2d` (or a mix, `1d12h`) → milliseconds; null
 * when it is none of these.
 */
export function parseDuration(text: string): number | null {
  const match = /^(?:(\d{1,3})d)?(?:(\d{1,4})h)?(?:(\d{1,5})m)?$/.exec(text.trim());
  if (!match || text.trim() === "") return null;
  const [, days = "0", hours = "0", minutes = "0"] = match;
  return ((Number(days) * 24 + Number(hours)) * 60 + Number(minutes)) * 60_000;
}
