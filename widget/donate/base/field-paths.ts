import { DONATE_FIELDS, type DonateField } from "./fields";

/** The request's field paths (those under `donor.` without it) named otherwise in the form. */
const RENAMED: Record<string, DonateField> = {
  recurring_frequency: "frequency",
  peer_fundraiser_id: "peer",
  peer_fundraiser_team_id: "peer",
  credit_card_token: "card",
  donor: "firstName",
  full_name: "fullName",
  first_name: "firstName",
  last_name: "lastName",
  street_address: "street",
  postal_code: "zip",
  "dedication.kind": "dedicationName",
  "dedication.name": "dedicationName",
  "dedication.notify_email": "dedicationEmail",
};
/** The form's field for a path of the request ("donor.email" → "email"), if it has one. */
export function fieldAt(path: string): DonateField | undefined {
  const name = path.replace(/^donor\./, "");
  return RENAMED[name] ?? DONATE_FIELDS.find((field) => field === name);
}
