// Crowds give, bots don't, one proxy on SQLite: test/proxy/defence/crowds.ts.
import { describeCrowds } from "./crowds";

describeCrowds("sqlite");
