/**
 * A donation's checks before any key is claimed, in order: the schema, the campaign it names and
 * that campaign's rules (campaign.ts), then the defence's admission of its card token (a refused
 * token leaves the key free for the next one). A request refused here claims nothing and costs
 * nothing.
 */
import { DonationRequestSchema, type Campaign, type DonationRequest } from "../../contract/api";
import { campaignScope, type CampaignDirectory } from "../campaign/directory";
import type { Defence } from "../defence/defence";
import { validate } from "../validate";
import { checkAgainstCampaign, resolveCampaign } from "./campaign";

/** A donation that may claim its key: the checked request, its campaign, and how its card was made. */
export interface CheckedDonation {
  request: DonationRequest;
  campaign: Campaign;
  /** The card token was made under a solved challenge. */
  proven: boolean;
}

/**
 * @example
 * const { request, campaign, proven } = await checkDonation(deps, c.get("body"), c.get("clientIp"));
 */
export async function checkDonation(
  deps: {
    campaigns: CampaignDirectory;
    /** Every path to the card network is gated: a charge's card token too (defence/scrutiny.ts). */
    defence: Pick<Defence, "admitDonation">;
  },
  body: unknown,
  ip: string,
): Promise<CheckedDonation> {
  const request = validate(DonationRequestSchema, body);
  const campaign = resolveCampaign(deps.campaigns, request);
  checkAgainstCampaign(campaign, request);
  const { proven } = await deps.defence.admitDonation({
    ip,
    campaign: campaignScope(campaign),
    token: request.credit_card_token,
    email: request.donor.email,
  });
  return { request, campaign, proven };
}
