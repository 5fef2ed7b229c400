/**
 * An answer's Retry-After in seconds, when it gives a number of them (the proxy's form; an HTTP
 * date is not); undefined otherwise.
 */
export function readRetryAfter(response: Response): number | undefined {
  const seconds = Number(response.headers.get("Retry-After") || Number.NaN);
  return seconds >= 0 ? seconds : undefined;
}
