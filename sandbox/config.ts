/** The sandbox's configuration, read once from the environment at start. */
import * as z from "zod/mini";

export const DEFAULT_FIXTURE = "sandbox/fixtures/demo.json";
export const DEFAULT_DB = "data/sandbox.db";
/** The longest latency the sandbox will add: a minute. */
const MAX_LATENCY_MS = 60_000;
/** The longest session lifetime: thirty days. */
const MAX_SESSION_TTL_S = 30 * 24 * 3600;

const integer = (min: number, max: number) =>
  z.string().check(
    z.regex(/^\d+$/, `must be a whole number from ${min} to ${max}`),
    z.refine((value) => Number(value) >= min && Number(value) <= max, `must be from ${min} to ${max}`),
  );

const ConfigEnvSchema = z.object({
  SANDBOX_PORT: z._default(integer(0, 65_535), "4010"),
  SANDBOX_HOST: z._default(
    z.string().check(z.regex(/^[A-Za-z0-9.:[\]-]+$/, "must be a host name or IP address")),
    "127.0.0.1",
  ),
  SANDBOX_FIXTURE: z._default(z.string().check(z.minLength(1, "must be a file path")), DEFAULT_FIXTURE),
  SANDBOX_DB: z._default(z.string().check(z.minLength(1, 'must be a file path or ":memory:"')), DEFAULT_DB),
  SANDBOX_SESSION_TTL_S: z._default(integer(1, MAX_SESSION_TTL_S), "3600"),
  SANDBOX_LATENCY_MS: z._default(integer(0, MAX_LATENCY_MS), "0"),
});

export interface SandboxConfig {
  port: number;
  host: string;
  fixturePath: string;
  dbPath: string;
  sessionTtlS: number;
  latencyMs: number;
}

/** A configuration value that cannot be used; the message names the variable. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

/**
 * Reads the SANDBOX_* variables; an empty variable counts as unset.
 *
 * @example
 * loadConfig({ SANDBOX_PORT: "0", SANDBOX_DB: ":memory:" }).port === 0
 */
export function loadConfig(env: Record<string, string | undefined>): SandboxConfig {
  const present = Object.fromEntries(
    Object.keys(ConfigEnvSchema.shape)
      .filter((key) => env[key] !== undefined && env[key] !== "")
      .map((key) => [key, env[key]]),
  );
  const parsed = ConfigEnvSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0]);
    throw new ConfigError(`${name} ${issue.message} (got ${JSON.stringify(env[name])})`);
  }
  const value = parsed.data;
  return {
    port: Number(value.SANDBOX_PORT),
    host: value.SANDBOX_HOST,
    fixturePath: value.SANDBOX_FIXTURE,
    dbPath: value.SANDBOX_DB,
    sessionTtlS: Number(value.SANDBOX_SESSION_TTL_S),
    latencyMs: Number(value.SANDBOX_LATENCY_MS),
  };
}
