/** `npm run proxy`: the proxy from its TypeScript source (`givekit serve` runs the same, built). */
import { runServe } from "./cli/serve";

const code = await runServe(process.env, process.stderr);
// Exits at once: a stopped proxy has flushed its log and closed its store.
process.exit(code);
