/** `npm run proxy`: reads the configuration from the environment and listens. */
import { ConfigError, loadConfig } from "./config";
import { JournalInUseError } from "./journal";
import { startProxyServer } from "./listen";

let config;
try {
  config = loadConfig(process.env);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`givekit proxy: bad configuration: ${error.message}\n`);
  process.exit(1);
}

let proxy;
try {
  proxy = await startProxyServer(config);
} catch (error) {
  if (!(error instanceof JournalInUseError)) throw error;
  process.stderr.write(`givekit proxy: ${error.message}\n`);
  process.exit(1);
}
process.stderr.write(`givekit proxy listening on ${proxy.url}\n`);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void proxy.close().then(() => process.exit(0));
  });
}
