// The crowds (test/proxy/defence/crowds.ts) and the circuit breakers against testers that solve
// (breaker-crowds.ts), one proxy on SQLite and two on one PostgreSQL: one store after the other in
// this one file, which Vitest runs alone after the other files (vitest.config.ts, project "crowds").
import { describeBreakerCrowds, describeTesterFirst } from "./breaker-crowds";
import { describeCrowds } from "./crowds";

describeCrowds("sqlite");
describeCrowds("postgres");
describeBreakerCrowds("sqlite");
describeBreakerCrowds("postgres");
describeTesterFirst();
