/** A tiny app around one piece of middleware, answering problems as the proxy does. */
import { Hono, type MiddlewareHandler } from "hono";
import type { AppEnv } from "../context";
import { problemOf, problemResponse } from "../problem";

export function appWith(...middleware: MiddlewareHandler<AppEnv>[]) {
  const app = new Hono<AppEnv>();
  app.use("*", async (c, next) => {
    c.set("logFields", {});
    c.set("clientIp", "203.0.113.5");
    await next();
  });
  for (const handler of middleware) app.use("*", handler);
  app.all("*", (c) => c.json({ method: c.req.method, body: c.get("body") ?? null }));
  app.onError((error) => {
    const problem = problemOf(error);
    if (problem) return problemResponse(problem);
    throw error;
  });
  return app;
}
