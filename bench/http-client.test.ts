import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { keepAliveAgent, post } from "./http-client";

/**
 * A server that answers 200 and counts its connections; `reset` decides, per request, whether
 * it resets the connection instead of answering (as a server that closed an idle connection
 * the request arrived on).
 */
async function server(reset: (request: { onReusedConnection: boolean; n: number }) => boolean = () => false) {
  const connections = new Set<Socket>();
  const served = new WeakMap<Socket, number>();
  let n = 0;
  const http: Server = createServer((req, res) => {
    const socket = req.socket;
    const before = served.get(socket) ?? 0;
    served.set(socket, before + 1);
    req.resume();
    req.on("end", () => {
      if (reset({ onReusedConnection: before > 0, n: n++ })) socket.resetAndDestroy();
      else res.end("ok");
    });
  });
  http.on("connection", (socket: Socket) => connections.add(socket));
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  running.push(http);
  return {
    http,
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    connections: () => connections.size,
  };
}

const running: Server[] = [];
afterEach(async () => {
  for (const http of running.splice(0)) {
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  }
});

describe("the store comparison's client", () => {
  it("sends a request reset on a reused kept-alive connection once more, on a new one", async () => {
    const upstream = await server(({ onReusedConnection }) => onReusedConnection);
    const agent = keepAliveAgent(1);
    expect(await post(agent, upstream.url, "/v1/donations", "{}")).toEqual({ status: 200, text: "ok" });
    // The kept-alive connection is reset under the second request: it never reached the server.
    expect(await post(agent, upstream.url, "/v1/donations", "{}")).toEqual({
      status: 200,
      text: "ok",
      resent: true,
    });
    expect(upstream.connections()).toBe(2);
    agent.destroy();
  });

  it("counts a request that fails again as failed, with why, and never rejects", async () => {
    const upstream = await server(({ n }) => n > 0);
    const agent = keepAliveAgent(1);
    await post(agent, upstream.url, "/v1/donations", "{}");
    expect(await post(agent, upstream.url, "/v1/donations", "{}")).toEqual({
      status: 0,
      text: "",
      error: "ECONNRESET on /v1/donations (sent again)",
      resent: true,
    });
    agent.destroy();
  });

  it("does not send again a request that failed on a new connection", async () => {
    const upstream = await server();
    const url = upstream.url;
    running.splice(0);
    await new Promise((resolve) => upstream.http.close(resolve));
    const answer = await post(keepAliveAgent(1), url, "/v1/payment-tokens", "{}");
    expect(answer).toEqual({
      status: 0,
      text: "",
      error: "ECONNREFUSED on /v1/payment-tokens",
      resent: false,
    });
  });

  it("lets an idle connection go a second before the server's Keep-Alive timeout, not after", async () => {
    const upstream = await server();
    // Announced as Keep-Alive: timeout=2; the agent keeps an idle connection 1 s.
    upstream.http.keepAliveTimeout = 2000;
    const agent = keepAliveAgent(1);
    await post(agent, upstream.url, "/v1/donations", "{}");
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // The server would still take the first connection: the agent has let it go all the same.
    expect(await post(agent, upstream.url, "/v1/donations", "{}")).toEqual({ status: 200, text: "ok" });
    expect(upstream.connections()).toBe(2);
    agent.destroy();
  });
});
