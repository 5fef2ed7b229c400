/** What a PostgreSQL error means for the proxy: the database out of reach, or a fault. */
import { StoreOpenError, StoreUnavailableError } from "../errors";

const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
]);

const UNREACHABLE_MESSAGES = [
  "Connection terminated",
  "timeout exceeded when trying to connect",
  "Client has encountered a connection error",
  "Connection ended",
  "Query read timeout",
  "Cannot use a pool after calling end",
];

/**
 * Whether an error says the database cannot be reached now (network, shutdown, too many
 * connections) rather than that a statement is wrong.
 */
export function isUnreachable(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === "string" && (NETWORK_CODES.has(code) || /^(08|57P|53)/.test(code))) return true;
  return typeof message === "string" && UNREACHABLE_MESSAGES.some((text) => message.includes(text));
}

/** Rethrows an unreachable database as StoreUnavailableError (503), anything else as is. */
export function storeError(error: unknown): unknown {
  if (error instanceof StoreUnavailableError) return error;
  if (isUnreachable(error)) {
    const { code } = (error ?? {}) as { code?: unknown };
    return new StoreUnavailableError(typeof code === "string" ? code : "unreachable");
  }
  return error;
}

/**
 * The one-line cause of a failed start, naming DATABASE_URL and never its password.
 *
 * @example
 * openError(err, "postgres://u:secret@db:5432/givekit").message; // "DATABASE_URL: cannot connect to db:5432 (connection refused)"
 */
export function openError(error: unknown, url: string): StoreOpenError {
  const parsed = new URL(url);
  const where = `${parsed.hostname}:${parsed.port || "5432"}`;
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  let reason: string;
  if (code === "ECONNREFUSED") reason = `cannot connect to ${where} (connection refused)`;
  else if (code === "ENOTFOUND" || code === "EAI_AGAIN") reason = `cannot find the host ${parsed.hostname}`;
  else if (code === "28P01" || code === "28000")
    reason = `${where} refused the login (wrong user name or password)`;
  else if (code === "3D000")
    reason = `${where} has no database named ${parsed.pathname.slice(1) || "(none)"}`;
  else if (typeof message === "string" && message.includes("timeout"))
    reason = `no answer from ${where} in time`;
  else reason = `${where}: ${typeof message === "string" ? message : "cannot open the database"}`;
  const password = decodeURIComponent(parsed.password);
  if (password) reason = reason.split(password).join("***");
  return new StoreOpenError("DATABASE_URL", reason);
}
