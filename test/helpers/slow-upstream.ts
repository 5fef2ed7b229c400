/**
 * The sandbox behind a relay that holds the donate call for a while before passing it on: an
 * upstream that answers a donation after `delayMs`, and everything else at once.
 *
 * @example
 * const slow = await slowDonations(sandbox.url, 10_000);
 */
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { UPSTREAM_PATHS } from "../../proxy/upstream/client";

/** The sandbox behind a relay that holds its answer to the donate call for `delayMs`: a slow upstream for one path. */
export async function slowDonations(target: string, delayMs: number) {
  const to = new URL(target);
  const held = new Set<NodeJS.Timeout>();
  const server = createServer((req, res) => {
    const forward = () => {
      const upstream = request(
        { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on("error", () => res.destroy());
      req.pipe(upstream);
    };
    if (req.url?.startsWith(UPSTREAM_PATHS.donate)) {
      req.pause();
      const timer = setTimeout(() => {
        held.delete(timer);
        req.resume();
        forward();
      }, delayMs);
      held.add(timer);
    } else forward();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      for (const timer of held) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
