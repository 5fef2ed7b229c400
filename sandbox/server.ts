/** `npm run sandbox`: reads SANDBOX_* from the environment and serves the sandbox. */
import { loadConfig } from "./config";
import { loadFixtureFile } from "./fixture";
import { startSandboxServer } from "./listen";

try {
  const config = loadConfig(process.env);
  const fixture = loadFixtureFile(config.fixturePath);
  const sandbox = await startSandboxServer({ ...config, fixture });
  process.stdout.write(
    `givekit sandbox listening on ${sandbox.url}\n` +
      `  fixture ${config.fixturePath} (${fixture.accounts.map((account) => account.name).join(", ")}; tokens are in that file)\n` +
      `  database ${config.dbPath}, session TTL ${config.sessionTtlS} s, latency ${config.latencyMs} ms\n`,
  );
  const stop = () => void sandbox.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
} catch (error) {
  console.error(`[sandbox] cannot start: ${(error as Error).message}`);
  process.exit(1);
}
