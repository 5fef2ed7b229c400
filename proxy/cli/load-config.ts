import { ConfigError, loadConfig, type ProxyConfig } from "../config";
import type { Output } from "./output";

/**
 * The configuration, or null after one line naming the bad variable (`<who>: bad configuration: …`);
 * a variable set under its old name gets a line too.
 *
 * @example
 * const config = configOrSay(process.env, process.stderr, "givekit migrate");
 * if (!config) return 1;
 */
export function configOrSay(env: NodeJS.ProcessEnv, out: Output, who: string): ProxyConfig | null {
  try {
    const config = loadConfig(env);
    for (const line of config.deprecations) out.write(`${who}: ${line}\n`);
    return config;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    out.write(`${who}: bad configuration: ${error.message}\n`);
    return null;
  }
}
