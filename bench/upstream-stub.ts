/**
 * An instant upstream for the benchmark: answers the API v2 calls the proxy makes with fixed,
 * valid bodies and no work at all, so what is measured in front of it is the proxy's own cost.
 * Not a sandbox: it checks nothing. Prints "listening on <url>".
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

const ANSWERS: Record<string, string> = {
  "/api/v2/users/login_with_auth_token": JSON.stringify({ user: { session_token: "bench-session" } }),
  "/api/v2/donations/create_payment_token": JSON.stringify({
    credit_card_token: "tok_bench",
    brand: "visa",
    last_4: "4242",
  }),
  "/api/v2/donations/donate": JSON.stringify({
    donation: { status: "Success", message: "Approved. Authorization code: BENCH1.", transaction_id: "1" },
  }),
  "/api/v2/subscriptions/subscribe.json": JSON.stringify({
    subscription: { status: 200, message: "Subscribed" },
  }),
};

const server = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    const body = ANSWERS[new URL(req.url ?? "/", "http://stub").pathname];
    res.writeHead(body ? 200 : 404, { "Content-Type": "application/json" }).end(body ?? "{}");
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(
    `upstream stub listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`,
  );
});
process.once("SIGTERM", () => process.exit(0));
