/**
 * Which content coding to answer with, from a request's Accept-Encoding (RFC 9110 §12.5.3):
 * q-values, `*`, `identity`, any case. Never throws: a header it cannot read, or one that
 * refuses everything the server has, gets the plain bytes (a 406 would help no one).
 */

/** The codings the build writes beside a file, in the server's order of preference. */
export const CODINGS = ["br", "gzip"] as const;
export type Coding = (typeof CODINGS)[number];

/** The file name ending of each coding's sibling (`widget.js.br`). */
export const SIBLING_SUFFIX: Record<Coding, string> = { br: ".br", gzip: ".gz" };

const Q_VALUE = /^q=(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/i;

/** Each named coding's weight (lowercased), and `*`'s; a malformed entry is skipped. */
export function parseAcceptEncoding(header: string): Map<string, number> {
  const weights = new Map<string, number>();
  for (const entry of header.split(",")) {
    const [name, ...params] = entry.split(";").map((part) => part.trim());
    if (!name || !/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name)) continue;
    let weight = 1;
    for (const param of params) {
      const q = Q_VALUE.exec(param.replace(/\s+/g, ""));
      if (q) weight = Number(q[1]);
      else if (/^q\s*=/i.test(param)) weight = Number.NaN;
    }
    if (Number.isNaN(weight)) continue;
    const key = name.toLowerCase();
    // The first mention wins, as most servers read it.
    if (!weights.has(key)) weights.set(key, weight);
  }
  return weights;
}

/**
 * The coding to send, among `available` (in the server's order of preference), or null for the
 * plain bytes. The client's higher q wins; between equal ones, the server's order.
 *
 * @example
 * negotiateEncoding("gzip, deflate, br, zstd", ["br", "gzip"]); // "br"
 * negotiateEncoding("br;q=0, gzip;q=1", ["br", "gzip"]);         // "gzip"
 * negotiateEncoding(undefined, ["br", "gzip"]);                  // null: identity
 */
export function negotiateEncoding(
  header: string | undefined | null,
  available: readonly Coding[] = CODINGS,
): Coding | null {
  // No header at all: any coding is acceptable (RFC 9110), but plain bytes are the safe answer.
  if (header === undefined || header === null) return null;
  const weights = parseAcceptEncoding(header);
  const wildcard = weights.get("*");
  let best: Coding | null = null;
  let bestWeight = 0;
  for (const coding of available) {
    const weight = weights.get(coding) ?? wildcard ?? 0;
    if (weight > bestWeight) {
      best = coding;
      bestWeight = weight;
    }
  }
  if (best === null) return null;
  // identity, when the client names it, competes too: only a coding it prefers beats it.
  const identity = weights.get("identity");
  return identity !== undefined && identity > bestWeight ? null : best;
}
