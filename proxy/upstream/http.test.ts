import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { callUpstream, UpstreamTransportError } from "./http";
import { startStalledListener, type StalledListener } from "../../test/helpers/stalled-listener";

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A port nothing listens on. */
async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

function call(base: string, timeoutMs = 2000) {
  return callUpstream({
    method: "POST",
    url: new URL(`${base}/api/v2/donations/donate`),
    headers: { "Content-Type": "application/json" },
    body: "{}",
    connectTimeoutMs: 1000,
    timeoutMs,
    agent: false,
  });
}

async function failure(promise: Promise<unknown>): Promise<UpstreamTransportError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof UpstreamTransportError) return error;
    throw error;
  }
  throw new Error("the call succeeded");
}

describe("an upstream call", () => {
  it("returns the status and the parsed JSON body", async () => {
    const base = await serve((_req, res) => {
      res.writeHead(201, { "Content-Type": "application/json" }).end('{"ok":true}');
    });
    expect(await call(base)).toEqual({ status: 201, body: { ok: true } });
  });

  it("returns a 5xx as an answer, with an unreadable body as undefined", async () => {
    const base = await serve((_req, res) => {
      res.writeHead(500).end("<html>oops</html>");
    });
    expect(await call(base)).toEqual({ status: 500, body: undefined });
  });

  it("refused connection → not_sent (nothing reached the upstream)", async () => {
    const error = await failure(call(await closedPort()));
    expect(error.kind).toBe("not_sent");
    expect(error.reason).toBe("ECONNREFUSED");
  });

  it("a connect that never completes → not_sent after the connect timeout, not the whole timeout", async () => {
    const stalled: StalledListener = await startStalledListener();
    try {
      const started = performance.now();
      const error = await failure(
        callUpstream({
          method: "POST",
          url: new URL(`${stalled.url}/api/v2/donations/donate`),
          headers: { "Content-Type": "application/json" },
          body: "{}",
          connectTimeoutMs: 200,
          timeoutMs: 10_000,
          agent: false,
        }),
      );
      const elapsed = performance.now() - started;
      expect(error.kind).toBe("not_sent");
      expect(error.reason).toBe("connect timeout");
      expect(elapsed).toBeGreaterThanOrEqual(190);
      expect(elapsed).toBeLessThan(5_000);
    } finally {
      await stalled.close();
    }
  });

  it("no answer before the timeout → unknown (it was sent)", async () => {
    const base = await serve(() => {
      // Never answers.
    });
    const error = await failure(call(base, 150));
    expect(error.kind).toBe("unknown");
    expect(error.reason).toBe("timeout");
  });

  it("connection destroyed after the request arrived → unknown", async () => {
    const base = await serve((req) => {
      req.resume();
      req.on("end", () => (req.socket as Socket).destroy());
    });
    const error = await failure(call(base));
    expect(error.kind).toBe("unknown");
  });

  it("an answer cut off halfway → unknown", async () => {
    const base = await serve((_req, res) => {
      res.writeHead(200, { "Content-Type": "application/json", "Content-Length": "100" });
      res.write('{"donation":');
      setTimeout(() => res.socket?.destroy(), 10);
    });
    const error = await failure(call(base));
    expect(error.kind).toBe("unknown");
  });
});
