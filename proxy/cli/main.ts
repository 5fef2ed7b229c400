/**
 * `givekit`: what the people who run the proxy use to see it. Each command reads the same
 * configuration as the proxy (its environment variables) and prints no secret.
 *
 * @example
 * npx givekit doctor
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { ConfigError, loadConfig } from "../config";
import { escapeControls } from "./escape";
import type { Output } from "./output";
import { ATTEMPT_STATES, runAttempts, runConsentsExport, runReconcile, UsageError } from "./ops";
import { OUTBOX_STATES, runWebhooksList, runWebhooksRequeue } from "./webhooks";

interface Command {
  summary: string;
  usage: string;
  options: NonNullable<ParseArgsConfig["options"]>;
  /** Words after the command's name and before its options (`givekit defence allow RANGE`), handed as `values._`. */
  positionals?: boolean;
  run(values: Record<string, unknown>, env: NodeJS.ProcessEnv, out: Output, err: Output): Promise<number>;
}

const COMMANDS: Record<string, Command> = {
  serve: {
    summary: "run the proxy (migrates its store, listens; SIGTERM stops it gracefully)",
    usage: "givekit serve",
    options: {},
    // The proxy's whole app is loaded by the commands that run it, not by `givekit attempts`.
    run: async (_values, env, _out, err) => (await import("./serve")).runServe(env, err),
  },
  migrate: {
    summary: "bring the store's schema to this version, then stop (a release step)",
    usage: "givekit migrate",
    options: {},
    run: async (values, env, out) => (await import("./migrate")).runMigrate(values, env, out),
  },
  doctor: {
    summary:
      "check the configuration, the data directory, the client address, the upstream and every served campaign (--json for a document; --front URL, or GIVEKIT_PUBLIC_URL, sends a request through the reverse proxy)",
    usage: "givekit doctor [--json] [--front URL]",
    options: { json: { type: "boolean" }, front: { type: "string" } },
    run: async (values, env, out) =>
      (await import("./doctor/runner")).runDoctor(env, out, {
        json: values.json === true,
        ...(typeof values.front === "string" ? { front: values.front } : {}),
      }),
  },
  attempts: {
    summary:
      "list donation attempts, oldest first, as read (a table, or JSON lines with --json); never card data or tokens",
    usage: `givekit attempts [--state ${ATTEMPT_STATES.join("|")}] [--since ISO] [--limit N] [--after REFERENCE] [--json]`,
    options: {
      state: { type: "string" },
      since: { type: "string" },
      limit: { type: "string" },
      after: { type: "string" },
      json: { type: "boolean" },
    },
    run: runAttempts,
  },
  reconcile: {
    summary: "look every unknown attempt up in the transactions report now, a line per attempt",
    usage: "givekit reconcile [--reference R]",
    options: { reference: { type: "string" } },
    run: runReconcile,
  },
  "consents export": {
    summary: "export every consent record, as read (CSV with a header, or JSON lines)",
    usage: "givekit consents export [--since ISO] [--limit N] [--after ID] [--format csv|json]",
    options: {
      since: { type: "string" },
      format: { type: "string" },
      limit: { type: "string" },
      after: { type: "string" },
    },
    run: runConsentsExport,
  },
  "dashboard invite": {
    summary:
      "print a sign-in link to the staff dashboard for --name (logged at sign-in), single use, good --for a while (12h by default, at most 7d)",
    usage: "givekit dashboard invite --name NAME [--for 12h]",
    options: { name: { type: "string" }, for: { type: "string" } },
    run: async (values, env, out) => (await import("./dashboard")).runDashboardInvite(values, env, out),
  },
  "dashboard revoke": {
    summary: "end every staff dashboard session and unused invite at once",
    usage: "givekit dashboard revoke",
    options: {},
    run: async (values, env, out) => (await import("./dashboard")).runDashboardRevoke(values, env, out),
  },
  "defence status": {
    summary:
      "list the open circuit breakers (campaigns, and the clients they scrutinise) and the ranges let through (PostgreSQL)",
    usage: "givekit defence status",
    options: {},
    run: async (values, env, out) => (await import("./defence")).runDefenceStatus(values, env, out),
  },
  "defence allow": {
    summary:
      "let an address or range (a venue's Wi-Fi) through the circuit breakers for an event, on every proxy on this PostgreSQL; it expires",
    usage: "givekit defence allow <address or range> --for <90m|6h|2d>",
    options: { for: { type: "string" } },
    positionals: true,
    run: async (values, env, out) => (await import("./defence")).runDefenceAllow(values, env, out),
  },
  "webhooks list": {
    summary:
      "list webhook events, one row per endpoint, in the outbox's order: id, type, endpoint, state, tries, last error (JSON lines with --json); never a secret",
    usage: `givekit webhooks list [--state ${OUTBOX_STATES.join("|")}] [--since ISO] [--endpoint URL] [--limit N] [--after N] [--json]`,
    options: {
      state: { type: "string" },
      since: { type: "string" },
      endpoint: { type: "string" },
      limit: { type: "string" },
      after: { type: "string" },
      json: { type: "boolean" },
    },
    run: runWebhooksList,
  },
  "webhooks retry": {
    summary: "make webhook events not yet delivered (given up, or waiting for their next try) due now",
    usage: "givekit webhooks retry [--since ISO] [--endpoint URL]",
    options: { since: { type: "string" }, endpoint: { type: "string" } },
    run: runWebhooksRequeue("retry"),
  },
  "webhooks replay": {
    summary: "send again every webhook event made since a time, delivered ones included (the same event ids)",
    usage: "givekit webhooks replay --since ISO [--endpoint URL]",
    options: { since: { type: "string" }, endpoint: { type: "string" } },
    run: runWebhooksRequeue("replay"),
  },
};

const HELP = { help: { type: "boolean", short: "h" } } as const;

/** Commands that print the configuration's deprecation lines themselves. */
const SAYS_DEPRECATIONS = new Set(["serve", "migrate", "doctor"]);

/** A variable under its old name, said by every command (a bad configuration is the command's to say). */
function sayDeprecations(env: NodeJS.ProcessEnv, err: Output, name: string): void {
  try {
    for (const line of loadConfig(env).deprecations) err.write(`givekit ${name}: ${line}\n`);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
  }
}

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const lines = Object.entries(COMMANDS).map(
    ([name, command]) => `  ${name.padEnd(width)}  ${command.summary}`,
  );
  return [
    "Usage: givekit <command> [options]",
    "",
    "Commands:",
    ...lines,
    "",
    "Every command reads the proxy's configuration from the environment (proxy/GUIDE.md).",
    "`givekit --version` prints the version.",
    "`givekit <command> --help` explains one command.",
    "",
  ].join("\n");
}

function commandUsage(command: Command): string {
  return `Usage: ${command.usage}\n\n${command.summary[0]!.toUpperCase()}${command.summary.slice(1)}.\n`;
}

/** Runs one command line; resolves with the exit code (2: the command line itself is wrong). */
export async function main(
  args: string[],
  env: NodeJS.ProcessEnv,
  out: Output,
  err: Output,
): Promise<number> {
  let [name, ...rest] = args;
  // Two-word commands: `givekit consents export`.
  if (name && rest[0] && COMMANDS[`${name} ${rest[0]}`])
    [name, ...rest] = [`${name} ${rest[0]}`, ...rest.slice(1)];
  if (name === "--version" || name === "-v" || name === "version") {
    out.write(`givekit ${(await import("../listen")).givekitVersion()}\n`);
    return 0;
  }
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    (name === undefined ? err : out).write(usage());
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    err.write(`givekit: unknown command "${escapeControls(name)}"\n\n${usage()}`);
    return 2;
  }
  let values: Record<string, unknown>;
  try {
    const parsed = parseArgs({
      args: rest,
      options: { ...command.options, ...HELP },
      strict: true,
      allowPositionals: command.positionals === true,
    });
    values = command.positionals ? { ...parsed.values, _: parsed.positionals } : parsed.values;
  } catch (error) {
    err.write(`givekit ${name}: ${escapeControls((error as Error).message)}\n\n${commandUsage(command)}`);
    return 2;
  }
  if (values.help) {
    out.write(commandUsage(command));
    return 0;
  }
  // serve and migrate say a variable's old name themselves, doctor in a line of its own.
  if (!SAYS_DEPRECATIONS.has(name)) sayDeprecations(env, err, name);
  try {
    return await command.run(values, env, out, err);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    err.write(`givekit ${name}: ${error.message}\n\n${commandUsage(command)}`);
    return 2;
  }
}
