#!/usr/bin/env node
// `npx givekit …`: the proxy's command line (proxy/cli/main.ts), run from its TypeScript source.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../proxy/cli/main.ts");
process.exitCode = await main(process.argv.slice(2), process.env, process.stdout, process.stderr);
