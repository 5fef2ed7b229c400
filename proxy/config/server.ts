/**
 * The server itself: where it listens, the widget's built files it serves, its log level, how it
 * stops, who may read /metrics, and whether it may run in production with the demo's setup.
 */
import { resolve } from "node:path";
import * as z from "zod/mini";
import { isLoopbackHost } from "../client-ip";
import { absolute, REPO_ROOT, Required, whole } from "./values";

export const DEFAULT_WIDGET_DIR = resolve(REPO_ROOT, "dist/widget");
/** Seconds readiness says "stopping" before the listener closes, when not on loopback. */
export const DEFAULT_STOP_DELAY_S = 5;

export interface ServerConfig {
  port: number;
  host: string;
  widgetDir: string;
  /** GIVEKIT_METRICS_TOKEN: the Bearer token of GET /metrics; null: no /metrics at all (404). */
  metricsToken: string | null;
  logLevel: "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
  /**
   * GIVEKIT_STOP_DELAY_S: after a stop signal, how long readiness answers 503 before the listener
   * closes, so load balancers stop sending first (default 5 s; 0 when listening on loopback).
   */
  stopDelayMs: number;
  /**
   * GIVEKIT_KEEP_ALIVE_S: how long an idle kept-alive connection stays open. Longer than the
   * reverse proxy's or load balancer's own (nginx and most balancers keep theirs 60 s), so they
   * never send a donation on a connection the proxy has just closed (a 502, never retried).
   */
  keepAliveMs: number;
  /** GIVEKIT_ALLOW_DEMO_SETUP=true: serve with NODE_ENV=production despite the demo campaigns or no allowed origins. */
  allowDemoSetup: boolean;
}

/** Each variable's default ("" = required or optional without one). */
export const SERVER_DEFAULTS = {
  PORT: "8787",
  HOST: "127.0.0.1",
  GIVEKIT_WIDGET_DIR: DEFAULT_WIDGET_DIR,
  GIVEKIT_METRICS_TOKEN: "",
  LOG_LEVEL: "info",
  GIVEKIT_STOP_DELAY_S: "",
  GIVEKIT_KEEP_ALIVE_S: "65",
  GIVEKIT_ALLOW_DEMO_SETUP: "false",
} as const;

/** Never echoed in an error message. */
export const SERVER_SECRETS = ["GIVEKIT_METRICS_TOKEN"] as const;

export const ServerVariablesSchema = z.object({
  PORT: whole(0, 65535),
  HOST: Required,
  GIVEKIT_WIDGET_DIR: Required,
  GIVEKIT_METRICS_TOKEN: z.string().check(
    z.refine(
      (value) => value === "" || value.length >= 16,
      "must be at least 16 characters when set (unset: no /metrics)",
    ),
    z.regex(/^[\x21-\x7e]*$/, "may hold only visible ASCII characters"),
  ),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], {
    error: "must be one of fatal, error, warn, info, debug, trace, silent",
  }),
  GIVEKIT_STOP_DELAY_S: z
    .string()
    .check(z.regex(/^(\d{1,3})?$/, "must be a whole number of seconds (at most 999)")),
  GIVEKIT_KEEP_ALIVE_S: whole(1, 3600),
  GIVEKIT_ALLOW_DEMO_SETUP: z.enum(["true", "false"], 'must be "true" or "false"'),
});
export type ServerVariables = z.output<typeof ServerVariablesSchema>;

export function serverConfig(e: ServerVariables): ServerConfig {
  return {
    port: e.PORT,
    host: e.HOST,
    widgetDir: absolute(e.GIVEKIT_WIDGET_DIR),
    metricsToken: e.GIVEKIT_METRICS_TOKEN === "" ? null : e.GIVEKIT_METRICS_TOKEN,
    logLevel: e.LOG_LEVEL,
    // On loopback only a reverse proxy on this host sends traffic, and it probes no readiness.
    stopDelayMs:
      (e.GIVEKIT_STOP_DELAY_S === ""
        ? isLoopbackHost(e.HOST)
          ? 0
          : DEFAULT_STOP_DELAY_S
        : Number(e.GIVEKIT_STOP_DELAY_S)) * 1000,
    keepAliveMs: e.GIVEKIT_KEEP_ALIVE_S * 1000,
    allowDemoSetup: e.GIVEKIT_ALLOW_DEMO_SETUP === "true",
  };
}
