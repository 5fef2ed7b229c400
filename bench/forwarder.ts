/**
 * The floor for the benchmark: a bare node:http forwarder doing what the proxy must at the
 * least (take the opt-in, pass it upstream with the public token, pass the answer back) with no
 * validation, no store, no logs. Upstream base URL in argv[2]. Prints "listening on <url>".
 */
import { Agent, createServer, request } from "node:http";
import type { AddressInfo } from "node:net";

const upstream = new URL(process.argv[2] ?? "http://127.0.0.1:4010");
const agent = new Agent({ keepAlive: true, maxSockets: 64 });
const AUTHORIZATION = 'Token token="bench-public", type="public"';

const server = createServer((req, res) => {
  const out = request(
    {
      host: upstream.hostname,
      port: upstream.port,
      method: "POST",
      path: "/api/v2/subscriptions/subscribe.json",
      agent,
      headers: {
        "Content-Type": "application/json",
        "Content-Length": req.headers["content-length"] ?? "0",
        Authorization: AUTHORIZATION,
      },
    },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, { "Content-Type": "application/json" });
      answer.pipe(res);
    },
  );
  out.on("error", () => res.writeHead(502).end());
  req.pipe(out);
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`forwarder listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.once("SIGTERM", () => process.exit(0));
