/** doctor's "challenge": which challenge defence mode asks for (a note, never a failure). */
import type { ProxyConfig } from "../../config";
import { DoctorNote } from "./finding";

export function describeChallenge(config: ProxyConfig): DoctorNote {
  return new DoctorNote(
    config.defence.turnstile
      ? `Turnstile configured (site key ${config.defence.turnstile.siteKey}): defence mode asks for it`
      : "none configured (TURNSTILE_SITE_KEY, TURNSTILE_SECRET): defence mode asks givekit's own challenge (a proof of work)",
  );
}
