/**
 * doctor's upstream checks: the private token's login, the public token, and each served
 * campaign; an upstream failure is told as the variable that fixes it.
 */
import type { Campaign } from "../../../contract/api";
import type { UpstreamClient } from "../../upstream/client";
import {
  UpstreamAnswerError,
  UpstreamAuthError,
  UpstreamError,
  UpstreamUnreachableError,
} from "../../upstream/errors";
import { Finding, type Check } from "./finding";

/** The HTTP status the upstream answered a failed call with, if it answered. */
const httpStatusOf = (error: UpstreamError) =>
  error instanceof UpstreamAuthError || error instanceof UpstreamAnswerError ? error.httpStatus : null;

const BASE_URL_FIX =
  "set UPSTREAM_BASE_URL to the service's root (scheme://host[:port], without /api/v2: the proxy adds the paths)";

/**
 * An upstream call's failure as the variable that fixes it: no answer or a path the service
 * does not have is UPSTREAM_BASE_URL; a refused login its token.
 */
function upstreamFinding(error: unknown, token: "UPSTREAM_PRIVATE_TOKEN" | "UPSTREAM_PUBLIC_TOKEN"): unknown {
  if (!(error instanceof UpstreamError)) return error;
  if (error instanceof UpstreamUnreachableError)
    return new Finding(
      "UPSTREAM_BASE_URL",
      `the upstream cannot be reached (${error.message.replace(/\.$/, "")})`,
      "check the URL, and that this host can reach it (DNS, firewall, proxy)",
    );
  const status = httpStatusOf(error);
  if (status === 404 || status === 405)
    return new Finding(
      "UPSTREAM_BASE_URL",
      `the upstream answered HTTP ${status} at the API's path: no such API under this URL`,
      BASE_URL_FIX,
    );
  if (error instanceof UpstreamAuthError)
    return new Finding(
      token,
      error.message.replace(/\.$/, ""),
      `set ${token} to the account's ${token === "UPSTREAM_PRIVATE_TOKEN" ? "private" : "public"} API token`,
    );
  return new Finding(
    "UPSTREAM_BASE_URL",
    error.message.replace(/\.$/, ""),
    "check the service's status and that UPSTREAM_BASE_URL is its root, then run givekit doctor again",
  );
}

export function loginCheck(upstream: UpstreamClient): Check {
  return {
    name: "upstream login",
    run: async () => {
      try {
        await upstream.login();
      } catch (error) {
        throw upstreamFinding(error, "UPSTREAM_PRIVATE_TOKEN");
      }
      return "the private token is accepted";
    },
  };
}

export function publicTokenCheck(upstream: UpstreamClient): Check {
  return {
    name: "upstream public token",
    run: async () => {
      // A number no service takes: an answer about the number, not the token, proves the
      // token; nobody is subscribed.
      let outcome;
      try {
        outcome = await upstream.subscribe({ mobilenumber: "0", list: "givekit doctor" });
      } catch (error) {
        throw upstreamFinding(error, "UPSTREAM_PUBLIC_TOKEN");
      }
      if (outcome.kind !== "rejected") return "the public token is accepted";
      // A path the service does not have, or its failure, is no answer about the number.
      if (outcome.httpStatus === 404 || outcome.httpStatus === 405)
        throw new Finding(
          "UPSTREAM_BASE_URL",
          `the upstream answered HTTP ${outcome.httpStatus} at the subscribe path: no such API under this URL`,
          BASE_URL_FIX,
        );
      if (outcome.httpStatus === null || outcome.httpStatus >= 500)
        throw new Finding(
          "UPSTREAM_BASE_URL",
          `the upstream answered ${outcome.httpStatus === null ? "nothing usable" : `HTTP ${outcome.httpStatus}`} at the subscribe path, which says nothing of the public token`,
          "check the URL and the service's status, then run givekit doctor again",
        );
      return `the public token is accepted (a check that subscribes nobody: HTTP ${outcome.httpStatus})`;
    },
  };
}

export function campaignCheck(upstream: UpstreamClient, campaign: Campaign): Check {
  return {
    name: `campaign ${campaign.shortcode}/${campaign.keyword}`,
    run: async () => {
      let fundraisers;
      try {
        fundraisers = await upstream.fundraisers(campaign.shortcode, campaign.keyword);
      } catch (error) {
        if (
          error instanceof UpstreamError &&
          !(error instanceof UpstreamAuthError) &&
          httpStatusOf(error) === 404
        )
          throw new Finding(
            "GIVEKIT_CAMPAIGNS",
            `${campaign.shortcode}/${campaign.keyword} is not a campaign of this account upstream (${error.message.replace(/\.$/, "")})`,
            "correct its shortcode and keyword in the campaigns file, or create the keyword upstream",
          );
        throw upstreamFinding(error, "UPSTREAM_PRIVATE_TOKEN");
      }
      return `exists upstream (${fundraisers.length} fundraiser${fundraisers.length === 1 ? "" : "s"})`;
    },
  };
}
