/**
 * The store comparison's HTTP client (bench/proxy-bench.ts): POSTs through a keep-alive agent,
 * never rejecting, so a request that fails is counted, not fatal.
 *
 * @example
 * const agent = keepAliveAgent(16);
 * const answer = await post(agent, proxyUrl, "/v1/payment-tokens", body);
 * if (answer.status !== 201) console.log(answer.error ?? answer.status);
 */
import { Agent, request as httpRequest } from "node:http";

/**
 * The store comparison's client: keeps connections alive, and lets one go before the proxy
 * does. Node's agent keeps an idle connection forever unless it has a timeout; with one, it also
 * heeds the proxy's `Keep-Alive: timeout=5` and drops an idle connection a second before that.
 * Without it, the proxy closed connections idle for its 5 s while this process, busy (a burst of
 * arrivals after a stall), had not yet read their FIN and sent a request on one: reset
 * (ECONNRESET), an unhandled rejection that ended the run.
 */
export function keepAliveAgent(maxSockets: number): Agent {
  return new Agent({ keepAlive: true, maxSockets, timeout: 60_000 });
}

/** A request's answer, or why there was none (`status` 0 and the error's code). */
export interface Answer {
  status: number;
  text: string;
  error?: string;
  /** Sent again on a new connection: the kept-alive one was closed under it (see `post`). */
  resent?: boolean;
}

/**
 * POSTs `body`; never rejects: a request that fails resolves with status 0 and its error. The
 * agent's timeout above makes a closed kept-alive connection rare, not impossible (this
 * process may be held past both timers on a busy machine): a request reset on a reused
 * connection before any answer never reached the proxy, and is sent once more on a connection of
 * its own, as Node's documentation advises (a donation with the same Idempotency-Key).
 */
export function post(
  agent: Agent,
  url: string,
  path: string,
  body: string,
  headers: Record<string, string> = {},
  resending = false,
): Promise<Answer> {
  return new Promise((resolve) => {
    const req = httpRequest(
      url + path,
      {
        method: "POST",
        // A new connection, closed after its answer, for a request sent again.
        agent: resending ? false : agent,
        headers: {
          "content-type": "application/json",
          ...headers,
          "content-length": Buffer.byteLength(body),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            text: Buffer.concat(chunks).toString("utf8"),
            ...(resending ? { resent: true } : {}),
          }),
        );
        res.on("error", (error) => resolve(failure(path, req.reusedSocket, error, resending)));
      },
    );
    req.on("error", (error) => {
      const code = (error as NodeJS.ErrnoException).code;
      if (!resending && req.reusedSocket && (code === "ECONNRESET" || code === "EPIPE"))
        resolve(post(agent, url, path, body, headers, true));
      else resolve(failure(path, req.reusedSocket, error, resending));
    });
    req.end(body);
  });
}

function failure(path: string, reused: boolean, error: Error, resending: boolean): Answer {
  const code = (error as NodeJS.ErrnoException).code ?? error.message;
  const where = resending ? " (sent again)" : reused ? " (a kept-alive connection)" : "";
  return { status: 0, text: "", error: `${code} on ${path}${where}`, resent: resending };
}
