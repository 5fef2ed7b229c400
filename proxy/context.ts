/** What middleware hands to routes through the Hono context. */
import type { HttpBindings } from "@hono/node-server";

export interface RequestVariables {
  requestId: string;
  /** The client's address, from the socket (or X-Forwarded-For when configured). */
  clientIp: string;
  /** The parsed JSON body of a POST, set by the json-body middleware. */
  body: unknown;
  /** Extra fields for this request's log line (never secrets). */
  logFields: Record<string, string | number | boolean | null>;
  /** Set by a route whose page may be framed (its CSP frame-ancestors decides by whom). */
  framable: boolean;
  /** The signed-in staff member's invite name, set by the dashboard's guard (proxy/dashboard/routes.ts). */
  staff: string;
  /**
   * Set by a route answering with a script or a stylesheet: the headers only a document reads
   * (its CSP, Referrer-Policy, X-Frame-Options) are left off, bytes every donor would download.
   */
  subresource: boolean;
  /**
   * Set beside `subresource` by a route whose files are only ever loaded in CORS mode (the
   * module chunks under /assets/): a browser checks Cross-Origin-Resource-Policy only for
   * no-cors loads, so none is sent.
   */
  loadedWithCors: boolean;
}

export interface AppEnv {
  Bindings: Partial<HttpBindings>;
  Variables: RequestVariables;
}
