/**
 * A TCP relay between the proxy and the sandbox. Closing it makes the upstream refuse
 * connections (and opening it again on the same port brings it back); it also keeps what the
 * sandbox answered, so a test can learn the session tokens it issued. It passes bytes through
 * untouched: the sandbox still does all the work.
 */
import { createServer, connect, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

export interface Relay {
  url: string;
  port: number;
  /** Everything the sandbox sent back through the relay. */
  answers(): string;
  /** Stops listening and cuts open connections: the next connection is refused. */
  close(): Promise<void>;
  /** Listens again on the same port. */
  reopen(): Promise<void>;
}

export async function startRelay(targetUrl: string): Promise<Relay> {
  const target = new URL(targetUrl);
  const chunks: Buffer[] = [];
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;

  async function listen(): Promise<void> {
    server = createServer((socket) => {
      const upstream = connect(Number(target.port), target.hostname);
      sockets.add(socket).add(upstream);
      upstream.on("data", (data: Buffer) => chunks.push(data));
      socket.pipe(upstream).pipe(socket);
      const drop = () => {
        socket.destroy();
        upstream.destroy();
        sockets.delete(socket);
        sockets.delete(upstream);
      };
      socket.on("error", drop).on("close", drop);
      upstream.on("error", drop).on("close", drop);
    });
    await new Promise<void>((resolve) => server!.listen(port, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  }

  await listen();
  return {
    get url() {
      return `http://127.0.0.1:${port}`;
    },
    get port() {
      return port;
    },
    answers: () => Buffer.concat(chunks).toString("utf8"),
    async close() {
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      await new Promise((resolve) => server!.close(resolve));
    },
    reopen: listen,
  };
}
