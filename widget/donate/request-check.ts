/**
 * The donation request against contract/api.ts's DonationRequestSchema: the proxy's own rules,
 * applied before anything leaves the browser. It brings zod, so the donate chunk loads it on its
 * own, as soon as the form is created (DonationModel); the form waits for it only at Donate.
 */
import { DonationRequestSchema, type DonationRequest } from "../../contract/api";

/**
 * The path of every field the schema refuses ("donor.email", …); none when it takes the request.
 *
 * @example
 * refusedPaths({ ...request, donor: { ...request.donor, email: "ana@" } }); // ["donor.email"]
 */
export function refusedPaths(request: Omit<DonationRequest, "credit_card_token">): string[] {
  const checked = DonationRequestSchema.safeParse({ ...request, credit_card_token: "unchecked" });
  return checked.success ? [] : checked.error.issues.map((issue) => issue.path.join("."));
}
