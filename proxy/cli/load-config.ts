import { ConfigError, loadConfig, type ProxyConfig } from "../config";
import type { Output } from "./main";

/**
 * The configuration, or null after one line naming the bad variable (`<who>: bad configuration: …`).
 *
 * @example
 * const config = configOrSay(process.env, process.stderr, "givekit migrate");
 * if (!config) return 1;
 */
export function configOrSay(env: NodeJS.ProcessEnv, out: Output, who: string): ProxyConfig | null {
  try {
    return loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    out.write(`${who}: bad configuration: ${error.message}\n`);
    return null;
  }
}
