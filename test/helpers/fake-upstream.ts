/**
 * A hand-scripted upstream on 127.0.0.1 (an ephemeral port) and a givekit upstream client in
 * front of it, for tests of how the client reads answers the sandbox would never give.
 *
 * @example
 * const fake = await startFakeUpstream((request, res) => res.writeHead(500).end());
 * afterAll(() => fake.close());
 * await fake.client.donate({ … });
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createUpstreamClient, type UpstreamClient } from "../../proxy/upstream/client";
import type { TransactionRow } from "../../contract/upstream";

export interface FakeRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  /** The request's JSON body, or {} when it had none. */
  body: Record<string, unknown>;
}

export interface FakeUpstream {
  url: string;
  /** Reads tokens "p" (private) and "q" (public), 1 s connect and 2 s total timeouts. */
  client: UpstreamClient;
  close(): Promise<void>;
}

export async function startFakeUpstream(
  answer: (request: FakeRequest, res: ServerResponse<IncomingMessage>) => void,
): Promise<FakeUpstream> {
  const server = createServer((req, res) => {
    let text = "";
    req.on("data", (chunk: Buffer) => (text += chunk.toString()));
    req.on("end", () => {
      answer(
        {
          method: req.method ?? "",
          path: new URL(req.url ?? "/", "http://x").pathname,
          authorization: req.headers.authorization,
          body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
        },
        res,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = createUpstreamClient({
    baseUrl: url,
    privateToken: "p",
    publicToken: "q",
    connectTimeoutMs: 1000,
    timeoutMs: 2000,
  });
  return {
    url,
    client,
    async close() {
      client.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A report row as the sandbox writes one: a $25.00 collected gift to HOPE@71777; fields override. */
export function reportRow(fields: Partial<TransactionRow> & Record<string, unknown> = {}): TransactionRow {
  return {
    transaction_id: "t1",
    amount: "25.00",
    donation_amount: "25.00",
    fee_amount: "0.00",
    status: "collected",
    transaction_type: "donation",
    recurring_frequency: null,
    shortcode: "71777",
    keyword: "HOPE",
    form_id: null,
    peer_fundraiser_id: null,
    peer_fundraiser_team_id: null,
    source: "api_via_givekit",
    last_4: "4242",
    anonymous: false,
    first_name: "Ana",
    last_name: "Doe",
    email: "ana@example.org",
    created_at: "2026-11-23T10:00:01.000Z",
    ...fields,
  };
}
