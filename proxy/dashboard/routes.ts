/**
 * The staff dashboard's routes: GET /dashboard/sign-in?invite=… spends an invite and sets the
 * session cookie; every other /dashboard address answers only with a good session (else 401,
 * saying nothing of the campaigns). Every sign-in is logged with its invite's name.
 */
import { Hono, type Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import type { Logger } from "pino";
import { DASHBOARD_FORM_HEADER } from "../../contract/dashboard";
import type { AppEnv } from "../context";
import { ProblemError } from "../problem";
import { DASHBOARD_PATH, SESSION_COOKIE, type DashboardAccess } from "./access";
import { escapeHtml } from "../campaign/display-page";
import { overTls } from "../middleware/over-tls";

/** The sign-in page's policy: no script, no style of its own; it only moves on to the dashboard. */
const SIGN_IN_CSP = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const unauthorized = () =>
  new ProblemError("unauthorized", "Sign in with the dashboard link you were given.", undefined, {
    "Cache-Control": "no-store",
  });

export function dashboardRoutes(deps: {
  access: DashboardAccess;
  logger: Logger;
  now?: () => number;
  /** The dashboard's own pages and data, mounted under /dashboard behind the sign-in. */
  pages: Hono<AppEnv>;
}) {
  const now = deps.now ?? Date.now;
  const app = new Hono<AppEnv>();
  app.get(`${DASHBOARD_PATH}/sign-in`, async (c) => {
    const signedIn = await deps.access.signIn(c.req.query("invite"));
    if (typeof signedIn === "string") {
      c.set("logFields", { ...c.get("logFields"), dashboard_sign_in: signedIn });
      throw new ProblemError("unauthorized", "This sign-in link cannot be used (again): ask for a new one.");
    }
    deps.logger.info(
      { dashboard_sign_in: signedIn.name, until: new Date(signedIn.until).toISOString() },
      "dashboard sign-in",
    );
    setCookie(c, SESSION_COOKIE, signedIn.cookie, {
      path: DASHBOARD_PATH,
      httpOnly: true,
      sameSite: "Strict",
      secure: overTls(c),
      maxAge: Math.max(1, Math.floor((signedIn.until - now()) / 1000)),
    });
    // A page rather than a redirect: a Strict cookie set while arriving from an e-mail's link is
    // sent from the next same-site navigation on, which this page makes.
    return c.html(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta http-equiv="refresh" content="0; url=${DASHBOARD_PATH}"><title>givekit dashboard</title></head><body><p>Signed in as ${escapeHtml(signedIn.name)}. <a href="${DASHBOARD_PATH}">Open the dashboard</a>.</p></body></html>`,
      200,
      {
        "Content-Security-Policy": SIGN_IN_CSP,
        "Cache-Control": "no-store",
        "Referrer-Policy": "no-referrer",
      },
    );
  });
  const guard = async (c: Context<AppEnv>, next: () => Promise<void>) => {
    const cookie = getCookie(c, SESSION_COOKIE);
    const session = await deps.access.check(cookie);
    if (typeof session === "string") {
      c.set("logFields", { ...c.get("logFields"), dashboard_session: session });
      throw unauthorized();
    }
    c.set("logFields", { ...c.get("logFields"), dashboard: session.name });
    c.set("dashboardStaff", { name: session.name, formToken: deps.access.formToken(cookie!) });
    // An action (a POST, a designer's PUT) comes from the dashboard's own page: its form token, and no other site.
    if (c.req.method !== "GET" && c.req.method !== "HEAD") {
      const site = c.req.header("sec-fetch-site");
      if (
        (site !== undefined && site !== "same-origin") ||
        !deps.access.isFormToken(cookie!, c.req.header(DASHBOARD_FORM_HEADER))
      )
        throw new ProblemError(
          "origin_not_allowed",
          "Press the button on the dashboard's own page (reload it if it has been open since before a sign-in).",
          undefined,
          { "Cache-Control": "no-store" },
        );
    }
    await next();
  };
  app.use(DASHBOARD_PATH, guard);
  app.use(`${DASHBOARD_PATH}/*`, guard);
  app.route(DASHBOARD_PATH, deps.pages);
  return app;
}
