// The crowds (test/proxy/defence/crowds.ts) and the circuit breakers against testers that solve
// (breaker-crowds.ts) on one proxy on SQLite. Vitest runs it and crowds-postgres.test.ts one after the
// other, alone after the other files (vitest.config.ts, project "crowds").
import { describeBreakerCrowds, describeTesterFirst } from "./breaker-crowds";
import { describeCrowds } from "./crowds";

describeCrowds("sqlite");
describeBreakerCrowds("sqlite");
describeTesterFirst("sqlite");
