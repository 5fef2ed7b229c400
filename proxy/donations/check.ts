/**
 * A donation's checks, in the two places the flow (routes/donations.ts) puts them:
 * `readDonation` before its key is looked up (the body against the schema: a request the schema
 * refuses is no donation, has no key to look up, and claims nothing), and `checkDonation` after
 * the key is claimed (its campaign and that campaign's rules, campaign.ts, then the defence's
 * admission of its card token). What `checkDonation` weighs is what holds now for a donor, a
 * client or a card: a replay never meets it, and a request it refuses frees its key (claim.ts).
 */
import { DonationRequestSchema, type Campaign, type DonationRequest } from "../../contract/api";
import { campaignScope, type CampaignDirectory } from "../campaign/directory";
import type { Defence } from "../defence/defence";
import { OPS_KINDS, type OpsCounter } from "../dashboard/ops-counts";
import { ProblemError } from "../problem";
import { validate } from "../validate";
import { checkAgainstCampaign, resolveCampaign } from "./campaign";

/** A donation that may go on to its attempt: its campaign, and how its card was made. */
export interface CheckedDonation {
  campaign: Campaign;
  /** The card token was made under a solved challenge. */
  proven: boolean;
  /** The form session the card token was made in, if the proxy minted it in one. */
  formSession: string | null;
}

/**
 * The body against the contract's schema: 400 validation_failed naming each field, else the request.
 *
 * @example
 * const request = readDonation(c.get("body"));
 */
export function readDonation(body: unknown): DonationRequest {
  return validate(DonationRequestSchema, body);
}

/**
 * @example
 * const { campaign, proven } = await checkDonation(deps, request, c.get("clientIp"));
 */
export async function checkDonation(
  deps: {
    campaigns: CampaignDirectory;
    /** Every path to the card network is gated: a charge's card token too (defence/scrutiny.ts). */
    defence: Pick<Defence, "admitDonation">;
    /** The dashboard's counts: a card refused before the network, by its problem's code. */
    ops?: OpsCounter;
  },
  request: DonationRequest,
  ip: string,
): Promise<CheckedDonation> {
  const campaign = resolveCampaign(deps.campaigns, request);
  checkAgainstCampaign(campaign, request);
  const scope = campaignScope(campaign);
  const { proven, minted } = await deps.defence
    .admitDonation({ ip, campaign: scope, token: request.credit_card_token, email: request.donor.email })
    .catch((error: unknown) => {
      if (error instanceof ProblemError) deps.ops?.count(scope, OPS_KINDS.refused, error.code);
      throw error;
    });
  return { campaign, proven, formSession: minted?.session ?? null };
}
