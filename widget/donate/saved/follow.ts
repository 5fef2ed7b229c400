import type { CampaignResponse } from "../../../contract/api";
import type { ApiClient } from "../../shared/api-client";

/** How often an open form asks whether its saved form changed (a 304 while it has not): within a minute of a save. */
export const FORM_REFRESH_MS = 30_000;

/**
 * An open saved form's follow-up: asks `api` for the campaign's answer at `path` every
 * FORM_REFRESH_MS (a 304 while unchanged), reads it with `read`, and hands a newer version of the
 * form to `take` while the donor has not `started`. Returns its stop.
 *
 * @example
 * const stop = followSavedForm(api, "/v1/campaigns/71777/HOPE?form=year-end", readServedCampaign, () => 3, () => false, show);
 */
export function followSavedForm(
  api: ApiClient,
  path: string,
  read: (body: unknown) => CampaignResponse | null,
  shown: () => number | undefined,
  started: () => boolean,
  take: (answer: CampaignResponse) => void,
): () => void {
  const timer = setInterval(async () => {
    const result = await api.get<unknown>(path);
    const answer = result.kind === "ok" ? read(result.data) : null;
    if (!started() && answer?.form && answer.form.version !== shown()) take(answer);
  }, FORM_REFRESH_MS);
  return () => clearInterval(timer);
}
