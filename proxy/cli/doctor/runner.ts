/**
 * `givekit doctor`: one line per check, and a non-zero exit when one fails. It names what is
 * wrong (a variable, a campaign, an HTTP status) and never prints a token. Each check lives in
 * a file of its own beside this runner.
 */
import { loadConfig, type ProxyConfig } from "../../config";
import { createUpstreamClient } from "../../upstream/client";
import { escapeControls, jsonLine } from "../escape";
import type { Output } from "../output";
import { checkCampaignsFile } from "./campaigns-file";
import { describeChallenge } from "./challenge";
import { checkTrust } from "./client-address";
import { checkDataDir } from "./data-dir";
import { describeHumanCheck } from "./human-check";
import { DoctorNote, failure, type Check, type DoctorResult } from "./finding";
import { checkOptInLists, offeredLists } from "./opt-in-lists";
import { checkOrigins } from "./origins";
import { defenceCheck, storeCheck, webhooksCheck } from "./store";
import { campaignCheck, loginCheck, publicTokenCheck } from "./upstream";
import { checkWidgetBuild } from "./widget-build";

export type { DoctorResult } from "./finding";

/**
 * Runs every check; resolves with the exit code (1 when any failed). `--json` prints the results
 * as one JSON document instead of lines.
 */
export async function runDoctor(
  env: NodeJS.ProcessEnv,
  out: Output,
  options: { json?: boolean; front?: string } = {},
): Promise<number> {
  const results: DoctorResult[] = [];
  const say = (result: DoctorResult) => {
    results.push(result);
    if (options.json) return;
    const mark = result.status === "pass" ? "✓" : result.status === "fail" ? "✗" : "·";
    // Values doctor reads (a campaign's name, an upstream's answer) reach an operator's terminal.
    out.write(`${mark} ${escapeControls(result.check)}: ${escapeControls(result.text)}\n`);
  };
  const finish = (code: number) => {
    const failed = results.filter((result) => result.status === "fail").length;
    if (options.json) out.write(jsonLine({ ok: failed === 0, failed, checks: results }));
    else out.write(failed === 0 ? "All checks passed.\n" : `${failed} check(s) failed.\n`);
    return code;
  };

  let config: ProxyConfig;
  try {
    config = loadConfig(env);
  } catch (error) {
    say(failure("configuration", error));
    return finish(1);
  }
  say({
    check: "configuration",
    status: "pass",
    text:
      `${config.campaigns.length} campaign(s), upstream ${config.upstream.baseUrl}, ` +
      `data directory ${config.dataDir}`,
  });
  for (const line of config.deprecations) say({ check: "deprecated", status: "note", text: line });

  const upstream = createUpstreamClient(config.upstream);
  const front = options.front ?? (env.GIVEKIT_PUBLIC_URL?.trim() || undefined);
  const checks: Check[] = [
    { name: "allowed origins", run: async () => checkOrigins(config.allowedOrigins, env.NODE_ENV) },
    { name: "campaigns", run: async () => checkCampaignsFile(config) },
    { name: "widget build", run: async () => checkWidgetBuild(config.widgetDir) },
    { name: "challenge", run: async () => describeChallenge(config) },
    { name: "human check", run: async () => describeHumanCheck(config.defence) },
    ...(config.databaseUrl
      ? []
      : [{ name: "data directory", run: async () => checkDataDir(config.dataDir) }]),
    storeCheck(config),
    defenceCheck(config),
    ...(config.webhooks.length === 0 ? [] : [webhooksCheck(config)]),
    { name: "client address", run: () => checkTrust(config, front) },
    loginCheck(upstream),
    publicTokenCheck(upstream),
    ...config.campaigns.map((campaign) => campaignCheck(upstream, campaign)),
    ...(offeredLists(config).length === 0
      ? []
      : [{ name: "opt-in lists", run: () => checkOptInLists(config) }]),
  ];
  try {
    for (const check of checks) {
      try {
        const found = await check.run();
        say(
          found instanceof DoctorNote
            ? { check: check.name, status: "note", text: found.text }
            : { check: check.name, status: "pass", text: found },
        );
      } catch (error) {
        say(failure(check.name, error));
      }
    }
  } finally {
    upstream.close();
  }
  return finish(results.some((result) => result.status === "fail") ? 1 : 0);
}
