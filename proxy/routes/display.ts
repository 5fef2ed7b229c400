/**
 * GET /display/{shortcode}/{keyword}: the screen for the room, for a campaign the campaigns file
 * gives a display (else 404 problem+json); GET /display/assets/display.js and display.css: its
 * script and stylesheet as the build compressed them. Answered from memory once made: a thousand
 * screens opening at once cost the upstream nothing (their figures come from …/live).
 */
import { join } from "node:path";
import { Hono, type Context } from "hono";
import {
  compressedVariants,
  precompressedFiles,
  variantResponse,
  type Variants,
} from "../../http/precompressed";
import type { DisplaySettings } from "../../contract/api";
import { campaignScope, type CampaignDirectory } from "../campaign/directory";
import type { AppEnv } from "../context";
import { ProblemError } from "../problem";
import { DISPLAY_CSP, displayPage } from "../campaign/display-page";

const ASSETS = { "display.js": "text/javascript", "display.css": "text/css" } as const;
const SCRIPT = "/display/assets/display.js";
const STYLE = "/display/assets/display.css";

const respond = (c: Context<AppEnv>, variants: Variants, headers: Record<string, string>) =>
  variantResponse(
    { acceptEncoding: c.req.header("accept-encoding"), ifNoneMatch: c.req.header("if-none-match") },
    variants,
    headers,
  );

export function displayRoutes(deps: {
  campaigns: CampaignDirectory;
  displays: ReadonlyMap<string, DisplaySettings>;
  widgetDir: string;
}) {
  const pages = new Map<string, Variants>();
  const files = precompressedFiles();

  return new Hono<AppEnv>()
    .get("/display/assets/:name", async (c) => {
      const name = c.req.param("name");
      if (!Object.hasOwn(ASSETS, name)) throw new ProblemError("not_found", "No such display file.");
      const variants = await files.get(join(deps.widgetDir, "display", name));
      if (!variants)
        throw new ProblemError("not_found", "The display is not built yet: run `npm run build`.");
      c.set("subresource", true);
      return respond(c, variants, {
        "Content-Type": `${ASSETS[name as keyof typeof ASSETS]}; charset=utf-8`,
        "Cache-Control": "no-cache",
      });
    })
    .get("/display/:shortcode/:keyword", (c) => {
      const campaign = deps.campaigns.byKeyword(c.req.param("shortcode"), c.req.param("keyword"));
      const display = campaign && deps.displays.get(campaignScope(campaign));
      if (!campaign || !display) throw new ProblemError("not_found", "This campaign has no display here.");
      const key = campaignScope(campaign);
      let page = pages.get(key);
      if (!page) {
        page = compressedVariants(
          new Uint8Array(
            new TextEncoder().encode(displayPage(campaign, display, { script: SCRIPT, style: STYLE })),
          ),
        );
        pages.set(key, page);
      }
      return respond(c, page, {
        "Content-Type": "text/html; charset=utf-8",
        "Cache-Control": "no-cache",
        "Content-Security-Policy": DISPLAY_CSP,
        "Referrer-Policy": "no-referrer",
      });
    });
}
