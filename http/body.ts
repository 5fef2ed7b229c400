/**
 * Reading a request body with a size limit, as the proxy's JSON gate and the sandbox's body
 * reader both do. Each answers the failures in its own format (problem+json, the upstream's
 * error object); this only reads.
 */
import type { HttpBindings } from "@hono/node-server";

/** The body is larger than the limit (declared or counted): answer 413. */
export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`The body may be at most ${limit} bytes.`);
    this.name = "BodyTooLargeError";
  }
}

/** What a Hono context of either server offers: the request, and node:http's underneath. */
export interface BodySource {
  req: { raw: Request; header(name: string): string | undefined };
  env?: Partial<HttpBindings>;
}

/**
 * The body's bytes, at most `limit` (else BodyTooLargeError, before reading when the declared
 * Content-Length already says so). Read from the node:http request when there is one: it
 * works for GET bodies too and costs less than a web ReadableStream (README: the figures);
 * from the Request otherwise (`app.request()` in tests).
 *
 * @example
 * const bytes = await readBody(c, 16 * 1024);
 */
export async function readBody(c: BodySource, limit: number): Promise<Uint8Array> {
  const declared = c.req.header("content-length");
  if (declared !== undefined && Number(declared) > limit) throw new BodyTooLargeError(limit);
  const incoming = c.env?.incoming;
  if (!incoming) return readStream(c.req.raw, limit);
  if (incoming.readableEnded) return new Uint8Array();
  // Events rather than an async iterator: leaving an iterator early would destroy the socket
  // before the 413 could be sent. The rest is drained by the server adapter.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        reject(new BodyTooLargeError(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const cleanup = () => {
      incoming.off("data", onData);
      incoming.off("end", onEnd);
      incoming.off("error", onError);
    };
    incoming.on("data", onData);
    incoming.on("end", onEnd);
    incoming.on("error", onError);
  });
}

async function readStream(request: Request, limit: number): Promise<Uint8Array> {
  const stream = request.body;
  if (!stream) return new Uint8Array();
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new BodyTooLargeError(limit);
    }
    chunks.push(value);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The bytes as UTF-8 text; null when they are not valid UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}
