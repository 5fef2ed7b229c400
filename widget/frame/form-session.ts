import { FORM_SESSION_FIELD } from "../../contract/frame-fields";

/** Same origin as the frame: the proxy that served it. */
const FORM_SESSIONS = "/v1/form-sessions";
/** A session the proxy could not give is asked for again this much later. */
export const FORM_SESSION_RETRY_MS = 3000;

/** The frame's form session, as the card form reads it when the donor gives. */
export interface FormSessionSource {
  /** Asks for it (once; later calls do nothing): as the form that shows the frame appears. */
  open(): void;
  /** The session there is (opened first if it was not). */
  current(): Promise<string | null>;
}

type Campaign = { shortcode: string; keyword: string } | null;

async function ask(
  campaign: Campaign,
  origin: string,
  renew?: string,
): Promise<{ session: string; expiresInS: number } | null> {
  try {
    const response = await fetch(FORM_SESSIONS, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      // Bound to the frame's campaign (a renewal keeps what its session was bound to).
      body: JSON.stringify({ ...(renew ? { renew } : {}), ...campaign, ...(origin ? { origin } : {}) }),
      credentials: "omit",
    });
    if (!response.ok) return null;
    const body = (await response.json()) as Record<string, unknown>;
    const session = body[FORM_SESSION_FIELD];
    const expiresInS = body.expires_in_s;
    return typeof session === "string" && typeof expiresInS === "number" ? { session, expiresInS } : null;
  } catch {
    return null;
  }
}

/**
 * Asks the proxy for a form session once opened (the proxy times the form from it, so a page
 * cannot claim a time), and renews it at half its life while the frame stays open; one the
 * proxy could not give is asked for again a little later.
 */
export function openFormSession(campaign: Campaign = null, origin = ""): FormSessionSource {
  let latest: string | null = null;
  let pending: Promise<unknown> = Promise.resolve();
  const refresh = (): void => {
    pending = ask(campaign, origin, latest ?? undefined).then((answer) => {
      if (answer) latest = answer.session;
      setTimeout(refresh, answer ? (answer.expiresInS * 1000) / 2 : FORM_SESSION_RETRY_MS);
    });
  };
  let opened = false;
  const open = () => {
    if (opened) return;
    opened = true;
    refresh();
  };
  return {
    open,
    async current() {
      open();
      if (latest === null) await pending;
      return latest;
    },
  };
}
