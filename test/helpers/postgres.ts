/**
 * A PostgreSQL database of its own for a test file, on the run's server
 * (test/helpers/postgres-global.ts): made on first use, dropped after the file.
 *
 * @example
 * const url = await testDatabase(); // postgres://…/givekit_test_3f2a…
 */
import { randomBytes } from "node:crypto";
import { Client, type QueryResultRow } from "pg";
import { afterAll, inject } from "vitest";

/** The run's server, as a URL whose user may create databases. */
export function adminUrl(): string {
  return inject("givekitPostgresAdminUrl");
}

const made: string[] = [];
afterAll(async () => {
  for (const name of made.splice(0)) await dropDatabase(name);
});

async function admin<T>(run: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: adminUrl() });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

async function dropDatabase(name: string): Promise<void> {
  await admin((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).catch(
    () => undefined,
  );
}

/** A new, empty database; its URL. Dropped after the test file. */
export async function testDatabase(): Promise<string> {
  const name = `givekit_test_${randomBytes(6).toString("hex")}`;
  await admin((client) => client.query(`CREATE DATABASE "${name}"`));
  made.push(name);
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs one statement on a database (for tests that look at or change rows directly). */
export async function sql<R extends QueryResultRow = Record<string, unknown>>(
  url: string,
  text: string,
  values: unknown[] = [],
): Promise<R[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}
