/**
 * `givekit dashboard invite|revoke`: who may open the staff dashboard (proxy/dashboard/access.ts).
 * An invite is a link to the proxy's public address (GIVEKIT_PUBLIC_URL, else http://HOST:PORT)
 * holding a signed, single-use invite; revoke ends every session and unused invite at once.
 */
import {
  createDashboardAccess,
  DASHBOARD_PATH,
  INVITE_MAX_MS,
  isInviteName,
  parseDuration,
} from "../dashboard/access";
import { resolveSigningSecret } from "../store";
import { escapeControls } from "./escape";
import type { Output } from "./output";
import { UsageError, withStore } from "./ops";

/** The proxy's address as staff's browsers reach it, without a trailing slash; null when GIVEKIT_PUBLIC_URL is no http(s) URL. */
function publicUrl(env: NodeJS.ProcessEnv, host: string, port: number): string | null {
  const given = env.GIVEKIT_PUBLIC_URL?.trim();
  if (!given) return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  try {
    const url = new URL(given);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href.replace(/\/+$/, "") : null;
  } catch {
    return null;
  }
}

export async function runDashboardInvite(
  values: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
  out: Output,
) {
  const name = typeof values.name === "string" ? values.name.trim() : "";
  if (!isInviteName(name))
    throw new UsageError(
      "--name is who the link is for, 1 to 60 letters, digits and spaces (it is logged at sign-in)",
    );
  const forText = typeof values.for === "string" ? values.for : "12h";
  const forMs = parseDuration(forText);
  if (forMs === null || forMs < 60_000 || forMs > INVITE_MAX_MS)
    throw new UsageError(
      `--for is how long the link holds, such as 12h, 90m or 2d, at most 7d (got "${escapeControls(forText)}")`,
    );
  return withStore(env, out, false, async (store, config) => {
    const base = publicUrl(env, config.host, config.port);
    if (base === null) {
      out.write("givekit: bad configuration: GIVEKIT_PUBLIC_URL: must be an http(s) URL\n");
      return 1;
    }
    const access = createDashboardAccess({
      secret: resolveSigningSecret(config.dataDir, config.signingSecret),
      // Making a link reads the generation only; links are spent by the proxy.
      store: {
        dashboardGeneration: () => store.dashboardGeneration(),
        revokeDashboard: () => store.revokeDashboard(),
        spendDashboardInvite: () => Promise.reject(new Error("the command line spends no invite")),
      },
    });
    const invite = await access.invite(name, forMs);
    const until = new Date(Date.now() + forMs).toISOString();
    out.write(`${base}${DASHBOARD_PATH}/sign-in?invite=${invite}\n`);
    out.write(
      `For ${escapeControls(name)}, once, until ${until}. Anyone holding it can sign in: send it privately.\n`,
    );
    return 0;
  });
}

export async function runDashboardRevoke(
  _values: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
  out: Output,
) {
  return withStore(env, out, true, async (store) => {
    await store.revokeDashboard();
    out.write(
      "Every dashboard session and unused invite is ended: make new invites for whoever still needs one.\n",
    );
    return 0;
  });
}
