/** `npm run proxy`: reads the configuration from the environment and listens. */
import { ConfigError, loadConfig } from "./config";
import { startProxyServer } from "./listen";
import { JournalInUseError, SchemaTooNewError, StoreOpenError } from "./store";

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
  if (error instanceof StoreOpenError) {
    process.stderr.write(`givekit proxy: cannot open the database: ${error.message}\n`);
  } else if (error instanceof SchemaTooNewError) {
    process.stderr.write(`givekit proxy: cannot use the database: ${error.message}\n`);
  } else if (error instanceof JournalInUseError) {
    process.stderr.write(`givekit proxy: ${error.message}\n`);
  } else {
    throw error;
  }
  process.exit(1);
}
// Handlers first: a stop signal sent as soon as the line below is read must find them.
const running = proxy;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void running.close().then(() => process.exit(0));
  });
}
process.stderr.write(`givekit proxy listening on ${proxy.url}\n`);
