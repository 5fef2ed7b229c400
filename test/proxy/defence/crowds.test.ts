// The crowds (test/proxy/defence/crowds.ts) and the circuit breakers against testers that solve
// (breaker-crowds.ts), one proxy on SQLite and two on one PostgreSQL: one store after the other in
// this one file. They wait on real time more than on the CPU (a gala's guests spend 20 to 90 s in
// the form), so the file starts first on one of Vitest's two workers while the other runs every
// other file (vitest.config.ts), and never shares the machine with a second crowd.
import { describeBreakerCrowds } from "./breaker-crowds";
import { describeCrowds } from "./crowds";

describeCrowds("sqlite");
describeCrowds("postgres");
describeBreakerCrowds("sqlite");
describeBreakerCrowds("postgres");
