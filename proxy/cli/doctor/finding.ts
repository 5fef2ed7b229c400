/** What every doctor check says: a pass (its text), a note that fails nothing, or a Finding. */
import { ConfigError } from "../../config";
import { StoreOpenError } from "../../store";
import { UpstreamError } from "../../upstream/errors";

export interface Check {
  name: string;
  /** What it found; a DoctorNote is a line that fails nothing. */
  run(): Promise<string | DoctorNote>;
}

/** A line worth reading that is not a failure (such as "no challenge configured"). */
export class DoctorNote {
  constructor(readonly text: string) {}
}

/**
 * A failed check: the variable that fixes it, what is wrong, and the fix, so the line can be
 * acted on without the GUIDE open.
 */
export class Finding extends Error {
  constructor(
    readonly variable: string,
    readonly problem: string,
    readonly fix: string,
  ) {
    super(`${variable}: ${problem}. Fix: ${fix}`);
    this.name = "Finding";
  }
}

/** One check's result, as printed (and as `--json` gives it). */
export interface DoctorResult {
  check: string;
  status: "pass" | "fail" | "note";
  text: string;
  /** For a failure: the variable that fixes it, and how. */
  variable?: string;
  fix?: string;
}

function why(error: unknown): string {
  if (
    error instanceof Finding ||
    error instanceof UpstreamError ||
    error instanceof ConfigError ||
    error instanceof StoreOpenError ||
    error?.constructor === Error
  )
    return error.message;
  return error instanceof Error ? `${error.name}: ${error.message}` : "failed";
}

/** What fixes a store that would not open, by the variable that points at it. */
const STORE_FIXES: Record<string, string> = {
  DATABASE_URL:
    "check DATABASE_URL's host, port, database, user and password, and that PostgreSQL is up and reachable from this host",
  GIVEKIT_DATA_DIR:
    'run doctor as the proxy\'s user with its environment file (proxy/GUIDE.md, "systemd"), and give that user the directory (chown, mode 0700)',
};

/** The variable and fix of a failure: every ✗ says what to change and how. */
function remedy(error: unknown): { variable?: string; fix: string } {
  if (error instanceof Finding) return { variable: error.variable, fix: error.fix };
  if (error instanceof ConfigError)
    return {
      variable: error.variable,
      fix:
        error.fix ??
        `correct ${error.variable} (every variable, with what it takes: proxy/GUIDE.md, "Configuration")`,
    };
  if (error instanceof StoreOpenError)
    return {
      variable: error.variable,
      fix: STORE_FIXES[error.variable] ?? `correct ${error.variable}, then run givekit doctor again`,
    };
  // Not one doctor knows: the text says what happened; the log of the proxy may say more.
  return {
    fix: "read the message above; if it names no setting, report it with `givekit doctor --json`'s output",
  };
}

/** A failed check's result, naming its variable and the fix. */
export const failure = (check: string, error: unknown): DoctorResult => {
  const { variable, fix } = remedy(error);
  const text = why(error);
  return {
    check,
    status: "fail",
    // A Finding's message already ends with its fix.
    text: error instanceof Finding ? text : `${text}. Fix: ${fix}`,
    ...(variable === undefined ? {} : { variable }),
    fix,
  };
};

/** "2026-11-23T23:10:04Z": when, to the second, in UTC. */
export const at = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;
