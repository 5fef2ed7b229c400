// Runs the `givekit` command in this process, as a test would from a shell: its exit code and
// everything it wrote to stdout and stderr.
import { main } from "../../proxy/cli/main";

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

export async function givekit(args: string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
  let out = "";
  let err = "";
  const code = await main(
    args,
    env,
    { write: (text: string) => (out += text) },
    { write: (text: string) => (err += text) },
  );
  return { code, out, err };
}

/** Each line of a JSON lines output, parsed. */
export const jsonLines = <Row = Record<string, unknown>>(out: string): Row[] =>
  out
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Row);
