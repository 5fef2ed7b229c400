// Crowds give, bots don't, two proxies on one PostgreSQL: test/proxy/defence/crowds.ts.
import { describeCrowds } from "./crowds";

describeCrowds("postgres");
