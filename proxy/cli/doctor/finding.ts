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

/** A failed check's result, naming its variable (and fix) when the error knows them. */
export const failure = (check: string, error: unknown): DoctorResult => ({
  check,
  status: "fail",
  text: why(error),
  ...(error instanceof Finding
    ? { variable: error.variable, fix: error.fix }
    : error instanceof ConfigError || error instanceof StoreOpenError
      ? { variable: error.variable }
      : {}),
});

/** "2026-11-23T23:10:04Z": when, to the second, in UTC. */
export const at = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;
