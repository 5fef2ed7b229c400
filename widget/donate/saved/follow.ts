import type { CampaignResponse } from "../../../contract/api";
import { createApiClient } from "../../shared/api-client";
import { readCampaign } from "../base/responses";
import { FORM_REFRESH_MS } from "./saved-form";

/**
 * An open saved form's follow-up, in the rest of the form (later.ts, off the first step's bytes):
 * asks for the campaign's answer at `path` every FORM_REFRESH_MS (a 304 while unchanged) and hands
 * a newer version of the form to `take` while the donor has not `started`. Resolves to its stop.
 *
 * @example
 * const stop = followSavedForm(proxyUrl, "/v1/campaigns/71777/HOPE?form=year-end", () => 3, () => false, show);
 */
export function followSavedForm(
  proxyUrl: string,
  path: string,
  shown: () => number | undefined,
  started: () => boolean,
  take: (answer: CampaignResponse) => void,
): () => void {
  const api = createApiClient(proxyUrl);
  const timer = setInterval(async () => {
    const result = await api.get<unknown>(path);
    const answer = result.kind === "ok" ? readCampaign(result.data) : null;
    if (!started() && answer?.form && answer.form.version !== shown()) take(answer);
  }, FORM_REFRESH_MS);
  return () => clearInterval(timer);
}
