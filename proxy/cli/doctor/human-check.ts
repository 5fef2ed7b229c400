/**
 * `givekit doctor`'s line on the human check (one check of its own, to sit beside the others):
 * without Turnstile nothing tells a person from a script that runs the page, so the circuit
 * breakers (defence/breaker.ts) can only budget the cards that reach the network, and a crowd
 * beside a tester waits with it; with Turnstile, a person passes an open breaker.
 */
import type { DefenceConfig } from "../../config";
import { DoctorNote } from "./finding";

/**
 * @example
 * describeHumanCheck(config.defence).text; // "none configured: the defence can only budget …"
 */
export function describeHumanCheck(defence: Pick<DefenceConfig, "turnstile" | "breaker">): DoctorNote {
  const { breaker } = defence;
  const budgets =
    `${breaker.clientDeclines} declines and ${breaker.clientTokens} unanswered tokenizations a client, ` +
    `${breaker.campaignDeclines} and ${breaker.campaignTokens} a campaign, in ${breaker.windowS} s`;
  return new DoctorNote(
    defence.turnstile
      ? `Turnstile configured: a person passes an open circuit breaker (budgets: ${budgets})`
      : `none configured (TURNSTILE_SITE_KEY, TURNSTILE_SECRET): the defence can only budget the cards that reach the network (${budgets}); past a budget everyone there waits, people too, until a probe is charged`,
  );
}
