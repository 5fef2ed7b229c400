/**
 * A donation's campaign: the one the request names, served by this proxy, and the rules the
 * schema cannot know (its amount range, the frequencies it offers). Checked once the key is
 * claimed (a replay is answered as it first was, whatever the campaign says now): a request
 * refused here frees its key and costs nothing.
 */
import type { Campaign, DonationRequest } from "../../contract/api";
import { toCents } from "../../contract/money";
import type { CampaignDirectory } from "../campaign/directory";
import { ProblemError } from "../problem";

/** The campaign a request names (by keyword, by event, or both when they agree). */
export function resolveCampaign(directory: CampaignDirectory, request: DonationRequest): Campaign {
  const named = request.shortcode && request.keyword;
  const byKeyword = named ? directory.byKeyword(request.shortcode!, request.keyword!) : undefined;
  const byEvent =
    request.event_id && request.event_type
      ? directory.byEvent(request.event_id, request.event_type)
      : undefined;
  if (named && !byKeyword) {
    throw new ProblemError(
      "campaign_not_served",
      `${request.shortcode}/${request.keyword} is not served here.`,
    );
  }
  if (request.event_id && request.event_type && !byEvent) {
    throw new ProblemError("campaign_not_served", "This event is not served here.");
  }
  if (byKeyword && byEvent && byKeyword !== byEvent) {
    throw new ProblemError("validation_failed", "The keyword and the event name different campaigns.", {
      event_id: ["This event belongs to another campaign than the keyword."],
    });
  }
  return (byKeyword ?? byEvent)!;
}

/** Campaign rules the schema cannot know: the amount range and the offered frequencies. */
export function checkAgainstCampaign(campaign: Campaign, request: DonationRequest): void {
  const errors: Record<string, string[]> = {};
  const cents = toCents(request.amount);
  if (cents < toCents(campaign.min_amount) || cents > toCents(campaign.max_amount)) {
    errors.amount = [
      `The amount must be between ${campaign.min_amount} and ${campaign.max_amount} ${campaign.currency}.`,
    ];
  }
  if (request.recurring_frequency && !campaign.recurring_frequencies.includes(request.recurring_frequency)) {
    errors.recurring_frequency = ["This campaign does not offer that frequency."];
  }
  if (Object.keys(errors).length > 0) {
    throw new ProblemError("validation_failed", "Some fields are not valid for this campaign.", errors);
  }
}
