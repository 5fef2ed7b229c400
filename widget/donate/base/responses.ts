import type { CampaignResponse, Peer, PeersResponse } from "../../../contract/api";
import { isPositiveAmount } from "../../../contract/money";
import {
  CURRENCY_PATTERN,
  DEFAULT_MIN_AMOUNT,
  KEYWORD_PATTERN,
  LIST_NAME_MAX,
  ORIGIN_MAX,
  PEER_KINDS,
  RATE_PATTERN,
  RECURRING_FREQUENCIES,
  SHORTCODE_PATTERN,
  TARGET_TEXT_MAX,
  isAmount,
} from "../../../contract/patterns";
import {
  arrayOf,
  isBoolean,
  isText,
  nullable,
  oneOf,
  optional,
  pattern,
  readShape,
  textUpTo,
} from "../../shared/checks";

/*
 * The proxy's answers, read as contract/api.ts's schemas read them (CampaignResponseSchema,
 * PeersResponseSchema; a donation's answers are in donation-responses.ts, which loads later), by hand: those schemas pull zod's union,
 * default and nullable parsers into widget.js, which has a 30 KB budget. widget/readers.test.ts
 * holds each reader to its schema.
 */

export const isFrequency = oneOf(RECURRING_FREQUENCIES);
const targetText = optional(textUpTo(TARGET_TEXT_MAX));

const CAMPAIGN = {
  shortcode: pattern(SHORTCODE_PATTERN),
  keyword: pattern(KEYWORD_PATTERN),
  event_id: targetText,
  event_type: targetText,
  fee_rate: pattern(RATE_PATTERN),
  min_amount: optional(isPositiveAmount),
  max_amount: isPositiveAmount,
  currency: pattern(CURRENCY_PATTERN),
  recurring_frequencies: arrayOf(isFrequency),
  peer_fundraising: isBoolean,
  opt_in_lists: arrayOf(textUpTo(LIST_NAME_MAX)),
  goal_amount: optional(isPositiveAmount),
  allowed_origins: optional(arrayOf(textUpTo(ORIGIN_MAX))),
};

const PEER = {
  id: isText,
  name: isText,
  kind: oneOf(PEER_KINDS),
  team_id: nullable(isText),
  team_name: nullable(isText),
  raised: nullable(isAmount),
  goal: nullable(isAmount),
};

export function readCampaign(body: unknown): CampaignResponse | null {
  const campaign = readShape<CampaignResponse>(body, CAMPAIGN, true);
  if (campaign) campaign.min_amount ??= DEFAULT_MIN_AMOUNT;
  return campaign;
}

/** A page of peers: `more` counts those a longer query would narrow down to. */
export function readPeers(body: unknown): PeersResponse | null {
  const page = readShape<PeersResponse>(body, {
    peers: arrayOf((peer) => !!readShape(peer, PEER)),
    more: optional((value) => Number.isSafeInteger(value) && (value as number) >= 0),
  });
  return page && { ...page, peers: page.peers.map((peer) => readShape<Peer>(peer, PEER)!) };
}
