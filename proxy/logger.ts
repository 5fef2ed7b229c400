/**
 * The proxy's logger: pino, one JSON line per request. Redaction is a second line of defence;
 * the first is that no card data or token is ever handed to the logger.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { destination as pinoDestination, pino, type DestinationStream, type Logger } from "pino";

/** Log lines are written to stdout in chunks of this size… */
const LOG_BUFFER_BYTES = 4096;
/** …or at least this often, so a quiet proxy's lines are not held back. */
export const LOG_FLUSH_MS = 1000;

/** Fields pino replaces with "[redacted]" (fixed paths: wildcards cost a few µs on every line). */
export const REDACTED_PATHS = [
  "card_number",
  "cvv",
  "expiration_date",
  "credit_card_token",
  "token",
  "session_token",
  "authorization",
  "body.card_number",
  "body.cvv",
  "body.expiration_date",
  "body.credit_card_token",
  "headers.authorization",
  "headers.cookie",
  "req.headers.authorization",
  "req.headers.cookie",
];

/** The request being answered, so every line logged while answering it names its id. */
const requestScope = new AsyncLocalStorage<{ reqId: string }>();

/**
 * Runs `work` (a request's handling) so that every line any logger writes meanwhile carries `reqId`.
 *
 * @example
 * await inRequestScope(c.get("requestId"), next);
 */
export function inRequestScope<T>(reqId: string, work: () => Promise<T>): Promise<T> {
  return requestScope.run({ reqId }, work);
}

/**
 * @example
 * const logger = createLogger("info"); // to stdout, buffered (flush it before exiting)
 * const captured = createLogger("info", { write: (line) => lines.push(line) });
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: "givekit-proxy" },
    redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
    // Lines logged while a request is answered carry its id (X-Request-Id) without being handed it.
    // A fresh object each time: pino merges a line's own fields into what mixin returns.
    mixin: () => {
      const scope = requestScope.getStore();
      return scope ? { reqId: scope.reqId } : {};
    },
  };
  // Buffered writes to stdout: one system call per few dozen lines, not one per request.
  const stream =
    destination ??
    pinoDestination({ dest: 1, sync: false, minLength: LOG_BUFFER_BYTES, periodicFlush: LOG_FLUSH_MS });
  return pino(options, stream);
}

export type { Logger };
