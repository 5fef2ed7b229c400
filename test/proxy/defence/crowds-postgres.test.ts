// The crowds (test/proxy/defence/crowds.ts) and the circuit breakers against testers that solve
// (breaker-crowds.ts) on two proxies sharing one PostgreSQL. Vitest runs this file beside
// crowds-sqlite.test.ts, the two alone after the other files (vitest.config.ts, project "crowds").
import { describeBreakerCrowds, describeTesterFirst } from "./breaker-crowds";
import { describeCrowds } from "./crowds";

describeCrowds("postgres");
describeBreakerCrowds("postgres");
describeTesterFirst("postgres");
