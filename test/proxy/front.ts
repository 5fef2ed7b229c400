/**
 * A reverse proxy for tests, doing what the GUIDE's nginx does: it appends the address it saw to
 * X-Forwarded-For ($proxy_add_x_forwarded_for), sets X-Real-IP and X-Forwarded-Proto, and
 * passes the request on over a kept-alive connection. `forwardedFor: false` is an nginx whose
 * proxy_set_header line was forgotten; `from` is the address it connects to givekit from (any
 * of 127.0.0.0/8, so a test can play a reverse proxy on another host). And a client that
 * connects from the loopback address it is given, so each donor of a test has an address.
 */
import { Agent, createServer, request, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { received, type Client, type PostOptions, type Reply } from "./support";

export interface Front {
  url: string;
  close(): Promise<void>;
}

export async function startFront(
  target: string,
  options: { forwardedFor?: boolean; from?: string } = {},
): Promise<Front> {
  const to = new URL(target);
  const agent = new Agent({ keepAlive: true });
  const server: Server = createServer((req, res) => {
    const seen = req.socket.remoteAddress!.replace(/^::ffff:/, "");
    const headers: IncomingHttpHeaders = { ...req.headers, host: req.headers.host ?? to.host };
    delete headers.connection;
    if (options.forwardedFor !== false) {
      const before = req.headers["x-forwarded-for"];
      headers["x-forwarded-for"] = before ? `${String(before)}, ${seen}` : seen;
      headers["x-real-ip"] = seen;
      headers["x-forwarded-proto"] = "https";
    } else {
      // The header line forgotten: whatever the client sent is passed on as is, nothing added.
    }
    const forward = request(
      {
        host: to.hostname,
        port: to.port,
        method: req.method,
        path: req.url,
        headers,
        agent,
        localAddress: options.from ?? "127.0.0.1",
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on("error", () => {
      res.writeHead(502).end();
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      agent.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A client (support.ts's Client) whose connections come from `localAddress`: a donor of its own. */
export function clientFrom(baseUrl: string, localAddress: string): Client {
  const base = new URL(baseUrl);
  function send(path: string, method: string, headers: Record<string, string>, body?: string) {
    return new Promise<Reply>((resolve, reject) => {
      const req = request(
        {
          host: base.hostname,
          port: base.port,
          path,
          method,
          localAddress,
          headers: body === undefined ? headers : { ...headers, "Content-Length": Buffer.byteLength(body) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () => {
            const text = Buffer.concat(chunks).toString("utf8");
            const answerHeaders = new Headers();
            for (const [name, value] of Object.entries(res.headers))
              if (value !== undefined)
                answerHeaders.set(name, Array.isArray(value) ? value.join(", ") : value);
            received.push(text, ...answerHeaders.values());
            let json: unknown;
            try {
              json = text ? JSON.parse(text) : undefined;
            } catch {
              json = undefined;
            }
            resolve({ status: res.statusCode ?? 0, headers: answerHeaders, text, json });
          });
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  }
  return {
    get: (path: string, headers: Record<string, string> = {}) => send(path, "GET", headers),
    post: (path: string, body: unknown, options: PostOptions = {}) =>
      send(
        path,
        "POST",
        { "Content-Type": "application/json", ...options.headers },
        options.raw ?? JSON.stringify(body),
      ),
  };
}
