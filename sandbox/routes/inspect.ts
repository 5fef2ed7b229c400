/**
 * The sandbox's own endpoints (no auth; not part of the upstream interface):
 * GET /_sandbox/requests and GET /_sandbox/subscriptions; and, for tests and the benchmark,
 * POST /_sandbox/bulk (a big account in seconds) and GET /_sandbox/totals (a keyword's figures).
 */
import { Hono } from "hono";
import * as z from "zod/mini";
import { fromCents, toCents } from "../../contract/money";
import { AmountSchema } from "../../contract/money-schemas";
import { ApiError, type SandboxEnv, type SandboxRuntime, readJsonBody, validate } from "../http";
import type { Keyword, Ledger } from "../ledger";

export interface LoggedRequest {
  method: string;
  path: string;
  at: string;
}

/** The most one bulk call adds: enough for the scale tests, bounded so a typo cannot fill the disk. */
export const BULK_LIMITS = {
  transactions: 2_000_000,
  fundraisers: 200_000,
  teams: 50_000,
  days: 3650,
} as const;

const count = (max: number) => z.optional(z.int().check(z.gte(0), z.lte(max)));
const BulkSchema = z.strictObject({
  shortcode: z.string().check(z.maxLength(32)),
  keyword: z.string().check(z.maxLength(32)),
  transactions: count(BULK_LIMITS.transactions),
  days: z.optional(z.int().check(z.gte(1), z.lte(BULK_LIMITS.days))),
  /** Every donation of this amount (before any fee), rather than the usual mix. */
  amount: z.optional(AmountSchema),
  fundraisers: count(BULK_LIMITS.fundraisers),
  teams: count(BULK_LIMITS.teams),
});
const TotalsSchema = z.strictObject({
  shortcode: z.string().check(z.maxLength(32)),
  keyword: z.string().check(z.maxLength(32)),
});

/** The keyword named, in whichever account has it (these routes carry no token). */
function keywordNamed(ledger: Ledger, shortcode: string, keyword: string): Keyword {
  const found = ledger.keywordAnywhere(shortcode, keyword);
  if (!found)
    throw new ApiError(404, "keyword_not_found", `No keyword ${keyword} on shortcode ${shortcode}.`);
  return found;
}

export function inspectRoutes(runtime: SandboxRuntime, requests: readonly LoggedRequest[]): Hono<SandboxEnv> {
  const app = new Hono<SandboxEnv>();
  app.get("/_sandbox/requests", (c) => c.json({ requests }));
  app.get("/_sandbox/subscriptions", (c) => c.json({ subscriptions: runtime.ledger.subscriptions() }));

  app.post("/_sandbox/bulk", async (c) => {
    const body = validate(BulkSchema, (await readJsonBody(c)) ?? {});
    const keyword = keywordNamed(runtime.ledger, body.shortcode, body.keyword);
    const form = runtime.ledger.forms(keyword.id).find((candidate) => candidate.isDefault);
    const started = performance.now();
    const added = runtime.ledger.bulk({
      keywordId: keyword.id,
      accountId: keyword.accountId,
      shortcode: keyword.shortcode,
      keyword: keyword.keyword,
      peer: keyword.peer,
      formId: form?.id ?? "",
      transactions: body.transactions ?? 0,
      days: body.days ?? 30,
      ...(body.amount === undefined ? {} : { amountCents: toCents(body.amount) }),
      fundraisers: body.fundraisers ?? 0,
      teams: body.teams ?? 0,
    });
    return c.json({ ...added, took_ms: Math.round(performance.now() - started) });
  });

  app.get("/_sandbox/totals", (c) => {
    const query = validate(TotalsSchema, c.req.query());
    const keyword = keywordNamed(runtime.ledger, query.shortcode, query.keyword);
    const totals = runtime.ledger.keywordTotals(keyword.accountId, keyword.shortcode, keyword.keyword);
    return c.json({
      shortcode: keyword.shortcode,
      keyword: keyword.keyword,
      raised: fromCents(totals.cents),
      collected: totals.collected,
      donors: totals.donors ?? 0,
    });
  });
  return app;
}
