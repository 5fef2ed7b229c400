// The crowds (test/proxy/defence/crowds.ts) and the circuit breakers against testers that solve
// (breaker-crowds.ts) on one proxy on SQLite. Vitest runs this file beside crowds-postgres.test.ts,
// the two alone after the other files (vitest.config.ts, project "crowds"): real time, little CPU.
import { describeBreakerCrowds, describeTesterFirst } from "./breaker-crowds";
import { describeCrowds } from "./crowds";

describeCrowds("sqlite");
describeBreakerCrowds("sqlite");
describeTesterFirst("sqlite");
