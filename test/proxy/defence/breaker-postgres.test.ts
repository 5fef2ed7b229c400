// Circuit breakers against testers that solve, two proxies on one PostgreSQL: test/proxy/defence/breaker-crowds.ts.
import { describeBreakerCrowds } from "./breaker-crowds";

describeBreakerCrowds("postgres");
