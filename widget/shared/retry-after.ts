/**
 * An answer's Retry-After in seconds, when it gives a whole number of them (the proxy's form; an
 * HTTP date is not); undefined otherwise.
 */
export function readRetryAfter(response: Response): number | undefined {
  const value = response.headers.get("Retry-After")?.trim();
  return value && /^\d{1,6}$/.test(value) ? Number(value) : undefined;
}
