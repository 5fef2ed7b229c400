/**
 * A nonprofit's webhook receiver for tests: an HTTP server on 127.0.0.1 that records every
 * delivery (headers and body as received) and answers as the test says, and the GUIDE's Node
 * verification snippet loaded word for word, as a receiver would paste it.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

export interface Delivery {
  at: number;
  headers: IncomingMessage["headers"];
  body: string;
  /** What the receiver answered (0: it never answered). */
  status: number;
}

export type Answer =
  | number
  | { status: number; headers?: Record<string, string>; delayMs?: number }
  /** Never answers (until the receiver closes). */
  | "hang";

export interface Receiver {
  url: string;
  deliveries: Delivery[];
  /** Decides each answer from the delivery and how many came before it. */
  answer: (delivery: Omit<Delivery, "status">, index: number) => Answer;
  /** Bodies of the deliveries answered 2xx, parsed. */
  accepted(): { id: string; type: string; data: Record<string, unknown> }[];
  /** Resolves once `test` holds, checking every 20 ms (rejects after `ms`). */
  until(test: () => boolean, ms?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(answer: Receiver["answer"] = () => 200): Promise<Receiver> {
  const hanging = new Set<ServerResponse>();
  const receiver = {} as Receiver;
  receiver.deliveries = [];
  receiver.answer = answer;
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      const delivery: Delivery = { at: Date.now(), headers: req.headers, body, status: 0 };
      const reply = receiver.answer(delivery, receiver.deliveries.length);
      receiver.deliveries.push(delivery);
      if (reply === "hang") {
        hanging.add(res);
        return;
      }
      const { status, headers, delayMs } =
        typeof reply === "number" ? { status: reply, headers: {}, delayMs: 0 } : reply;
      const send = () => {
        delivery.status = status;
        res.writeHead(status, headers).end();
      };
      if (delayMs) setTimeout(send, delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/givekit`;
  receiver.accepted = () =>
    receiver.deliveries
      .filter((delivery) => delivery.status >= 200 && delivery.status < 300)
      .map((delivery) => JSON.parse(delivery.body));
  receiver.until = async (test, ms = 20_000) => {
    const end = Date.now() + ms;
    while (!test()) {
      if (Date.now() > end)
        throw new Error(`receiver: not reached in ${ms} ms (${receiver.deliveries.length} deliveries)`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  receiver.close = async () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return receiver;
}

export type Verify = (
  secret: string,
  body: string,
  header: string,
  toleranceS?: number,
  nowS?: number,
) => boolean;

/** The GUIDE's Node snippet, word for word, as a receiver would paste it. */
export async function guideVerifier(): Promise<Verify> {
  const guide = readFileSync(join(__dirname, "../../proxy/GUIDE.md"), "utf8");
  const match = /<!-- webhook-verify-node -->\s*```js\n([\s\S]*?)```/.exec(guide);
  if (!match) throw new Error("proxy/GUIDE.md has no Node verification snippet");
  const file = join(mkdtempSync(join(tmpdir(), "givekit-snippet-")), "verify.mjs");
  writeFileSync(file, match[1]!);
  return ((await import(pathToFileURL(file).href)) as { verifyGivekit: Verify }).verifyGivekit;
}

/** A GIVEKIT_WEBHOOKS value for these endpoints (loopback receivers: allow_private). */
export function webhooksEnv(
  ...endpoints: { url: string; secret: string; events: string[]; allow_private?: boolean }[]
): string {
  return JSON.stringify(endpoints.map((endpoint) => ({ allow_private: true, ...endpoint })));
}
