// Circuit breakers against testers that solve, one proxy on SQLite: test/proxy/defence/breaker-crowds.ts.
import { describeBreakerCrowds } from "./breaker-crowds";

describeBreakerCrowds("sqlite");
