/**
 * POST /api/v2/donations/create_payment_token and POST /api/v2/donations/donate (also donate.json),
 * with the fault triggers that let a client's timeout and reset handling be tested.
 */
import { Hono } from "hono";
import { fromCents } from "../../contract/money";
import { UpstreamPaymentTokenRequestSchema } from "../../contract/upstream";
import { requireToken } from "../auth";
import { checkCard } from "../cards";
import { planDonation } from "../donate";
import {
  ApiError,
  type SandboxContext,
  type SandboxEnv,
  type SandboxRuntime,
  readJsonBody,
  validate,
} from "../http";
import type { TransactionStatus } from "../ledger";

/** Amounts (in cents) that make the sandbox misbehave on purpose; see sandbox/README.md. */
export const FAULT_SERVER_ERROR_CENTS = 666_66;
export const FAULT_NEVER_ANSWER_CENTS = 777_77;
export const FAULT_CONNECTION_RESET_CENTS = 888_88;
export const FAULT_NEVER_ANSWER_UNCHARGED_CENTS = 999_99;

const AUTH_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
const AUTH_CODE_LENGTH = 6;

const RESULT = {
  success: { status: "Success", row: "collected" },
  declined: { status: "Error", row: "declined" },
  fatal: { status: "Fatal", row: "failed" },
} as const satisfies Record<string, { status: string; row: TransactionStatus }>;

function authorizationCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(AUTH_CODE_LENGTH));
  return Array.from(bytes, (byte) => AUTH_CODE_ALPHABET[byte % AUTH_CODE_ALPHABET.length]).join("");
}

/** Resolves when the client's connection is gone (at once when there is none). */
function connectionClosed(c: SandboxContext): Promise<void> {
  const outgoing = c.env?.outgoing;
  if (!outgoing || outgoing.destroyed || outgoing.socket?.destroyed) return Promise.resolve();
  return new Promise((resolve) => outgoing.once("close", () => resolve()));
}

export function donationRoutes(runtime: SandboxRuntime): Hono<SandboxEnv> {
  const app = new Hono<SandboxEnv>();
  const session = requireToken(runtime, "session");

  app.post("/api/v2/donations/create_payment_token", session, async (c) => {
    const body = validate(UpstreamPaymentTokenRequestSchema, await readJsonBody(c));
    const card = checkCard(body, runtime.now());
    const token = runtime.ledger.createPaymentToken(
      { accountId: c.get("account").id, ...card },
      runtime.now().toISOString(),
    );
    return c.json({ credit_card_token: token, brand: card.brand, last_4: card.last4 });
  });

  const donate = async (c: SandboxContext) => {
    const account = c.get("account");
    const plan = planDonation(runtime.ledger, account, await readJsonBody(c), runtime.now());

    if (plan.amountCents === FAULT_SERVER_ERROR_CENTS) {
      throw new ApiError(
        500,
        "fault_server_error",
        "Fault trigger 666.66: a server error; nothing was charged.",
        undefined,
        false,
      );
    }
    if (plan.amountCents === FAULT_CONNECTION_RESET_CENTS) {
      c.env?.incoming?.socket.destroy();
      await connectionClosed(c);
      return c.body(null, 500);
    }

    if (plan.amountCents === FAULT_NEVER_ANSWER_UNCHARGED_CENTS) {
      // Silent and nothing charged: an unknown outcome that turns out not charged.
      await connectionClosed(c);
      return c.body(null, 504);
    }

    const result = RESULT[plan.outcome];
    const row = runtime.ledger.recordTransaction({
      ...plan,
      status: result.row,
      authorizationCode: plan.outcome === "success" ? authorizationCode() : null,
      createdAt: runtime.now().toISOString(),
    });

    if (plan.amountCents === FAULT_NEVER_ANSWER_CENTS) {
      // Charged, then silent: only the client's timeout (or the sandbox closing) ends this.
      await connectionClosed(c);
      return c.body(null, 504);
    }

    const charged = fromCents(row.amount_cents);
    if (plan.outcome === "success") {
      return c.json({
        donation: {
          status: result.status,
          message: `Donation of ${charged} approved. Authorization code: ${row.authorization_code}.`,
          transaction_id: row.transaction_id,
        },
      });
    }
    return c.json({
      donation: {
        status: result.status,
        message:
          plan.outcome === "declined"
            ? "The card was declined."
            : "The payment could not be processed. Try again later.",
      },
    });
  };

  for (const path of ["/api/v2/donations/donate", "/api/v2/donations/donate.json"]) {
    app.post(
      path,
      async (c, next) => {
        c.set("envelope", "donation");
        await next();
      },
      session,
      donate,
    );
  }
  return app;
}
