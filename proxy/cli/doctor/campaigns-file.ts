/** doctor's "campaigns": the campaigns file is the nonprofit's own, not the demo's. */
import { relative } from "node:path";
import { DEFAULT_CAMPAIGNS_PATH, packageRoot, type ProxyConfig } from "../../config";
import { Finding } from "./finding";

export function checkCampaignsFile(config: ProxyConfig): string {
  if (config.campaignsPath === DEFAULT_CAMPAIGNS_PATH) {
    throw new Finding(
      "GIVEKIT_CAMPAIGNS",
      `the demo campaigns file is in use (${relative(packageRoot(), DEFAULT_CAMPAIGNS_PATH)})`,
      "set GIVEKIT_CAMPAIGNS to your own campaigns file",
    );
  }
  return `${config.campaigns.length} from ${config.campaignsPath}`;
}
