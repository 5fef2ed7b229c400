import type { DonationResponse, DonationStatusResponse } from "../../../contract/api";
import { isAmount } from "../../../contract/patterns";
import { isObject, isText, nullable, oneOf, optional, readShape } from "../../shared/checks";
import { isFrequency } from "../base/responses";

/*
 * The proxy's answers to a donation and to a Pending one's follow-up, read as contract/api.ts's
 * DonationResponseSchema and DonationStatusResponseSchema read them, by hand (see responses.ts):
 * needed only once Donate is pressed, so in the chunk that loads then (later.ts).
 */

const SUCCESS = {
  status: oneOf(["Success"]),
  message: isText,
  transaction_id: isText,
  amount: isAmount,
  fee_amount: isAmount,
  recurring_frequency: nullable(isFrequency),
};
const PENDING = { status: oneOf(["Pending"]), reference: isText };
const STATUS = {
  status: oneOf(["Pending", "Success", "NotCharged"]),
  reference: isText,
  transaction_id: optional(isText),
};

export function readDonation(body: unknown): DonationResponse | null {
  const donation = isObject(body) ? body.donation : null;
  const read = readShape(donation, SUCCESS) ?? readShape(donation, PENDING);
  return read ? ({ donation: read } as DonationResponse) : null;
}

export function readDonationStatus(body: unknown): DonationStatusResponse | null {
  const donation = readShape<DonationStatusResponse["donation"]>(
    isObject(body) ? body.donation : null,
    STATUS,
  );
  return donation && { donation };
}
