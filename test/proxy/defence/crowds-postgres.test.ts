// The crowds (test/proxy/defence/crowds.ts) and the circuit breakers against testers that solve
// (breaker-crowds.ts) on two proxies sharing one PostgreSQL. Vitest runs it and
// crowds-sqlite.test.ts one after the other, alone after the other files (vitest.config.ts, project
// "crowds").
import { describeBreakerCrowds, describeTesterFirst } from "./breaker-crowds";
import { describeCrowds } from "./crowds";

describeCrowds("postgres");
describeBreakerCrowds("postgres");
describeTesterFirst("postgres");
