/**
 * The form designer's routes, under the dashboard's sign-in (routes.ts): GET /dashboard/forms
 * (the designer's page, filled by its own script), /dashboard/forms/setup.json (the campaigns
 * served here, the allowed origins, the saved forms), /dashboard/forms/{name}.json (a form's
 * versions, who saved each and when), PUT /dashboard/forms/{name} (a save: the next version,
 * refused with every problem named, or with form_changed when another was saved since),
 * POST /dashboard/forms/{name}/restore (an older version saved again as the newest),
 * /dashboard/forms/preview (the real element of a design, any of the six, for the designer's
 * frames; only a donate design is saved, the others are their snippet) and
 * /dashboard/forms/qr.svg?url= (a prefill link's QR code). Nothing inline runs.
 */
import { Hono, type Context } from "hono";
import { RestoreFormRequestSchema, SaveFormRequestSchema } from "../../contract/saved-form-schemas";
import {
  checkSavedDesign,
  FORM_ATTRIBUTES,
  FORM_ELEMENTS,
  FORM_DESIGN_MAX_BYTES,
  FORM_NAME_EXPECTED,
  isFormName,
  THEME_PROPERTIES,
  type FormDesign,
  type FormElement,
  type SavedFormVersion,
} from "../../contract/saved-forms";
import { campaignScope, type CampaignDirectory } from "../campaign/directory";
import { DISPLAY_CSP, escapeHtml, qrSvg } from "../campaign/display-page";
import type { SavedFormReader } from "../campaign/saved-forms";
import type { AppEnv } from "../context";
import { jsonBody } from "../middleware/json-body";
import { ProblemError } from "../problem";
import { dashboardAssets } from "./assets";
import type { SavedFormStore, StoredFormVersion } from "../store";
import { validate } from "../validate";

const ASSETS = { "forms.js": "text/javascript", "forms.css": "text/css" } as const;
/** How many versions of a form the history shows. */
export const HISTORY_SHOWN = 50;
/** The longest prefill link a QR code is drawn for. */
const QR_TEXT_MAX = 600;
/** The designer frames the preview, from its own origin only. */
const PAGE_CSP = DISPLAY_CSP.replace("default-src 'none'", "default-src 'none'; frame-src 'self'");
/** What a preview's element may ask this proxy for: its campaign and the figures it shows, every one a GET (routes/campaigns.ts, routes/wall.ts). */
const PREVIEW_READS = ["/v1/campaigns", "/v1/campaigns/"] as const;
/** A Host a CSP source can name: a name or IPv4 address, and its port (an IPv6 literal is no CSP host). */
const CSP_HOST = /^[a-z0-9.-]+(?::\d{1,5})?$/i;

/**
 * The preview's CSP: the widget from this proxy, framed by the designer only; never its card frame
 * (no frame may load in it), so no card is entered or tokenized; and it may ask this proxy for its
 * campaign's reads only, so no sign-up (/v1/subscriptions), gift or form session leaves it,
 * whatever upstream and ALLOWED_ORIGINS the proxy has.
 *
 * The reads are named at this proxy's origin as the browser asked for the page: its Host, as
 * cors.ts knows the proxy's own origin (a reverse proxy keeps it, proxy/GUIDE.md), without a
 * scheme so an https front matches too. A refusal at /v1/subscriptions could not tell the preview
 * from the card frame (the same origin, no referrer) and a page may drop its Referer, so it would
 * fail open; this fails closed: a Host rewritten, or one a CSP cannot name, lets the preview read
 * nothing and still send nothing.
 *
 * @example
 * previewCsp("give.hope.example"); // "…; connect-src give.hope.example/v1/campaigns give.hope.example/v1/campaigns/; …"
 */
export function previewCsp(host: string | undefined): string {
  const own = host && CSP_HOST.test(host) ? host.toLowerCase() : null;
  const reads = own ? PREVIEW_READS.map((path) => `${own}${path}`).join(" ") : "'none'";
  const directives = DISPLAY_CSP.split("; ").filter(
    (directive) => !/^(connect-src|frame-ancestors) /.test(directive),
  );
  return [...directives, `connect-src ${reads}`, "frame-ancestors 'self'"].join("; ");
}

const toVersion = (stored: StoredFormVersion): SavedFormVersion => ({
  name: stored.name,
  version: stored.version,
  design: JSON.parse(stored.design) as FormDesign,
  author: stored.author,
  saved_at: new Date(stored.savedAt).toISOString(),
});

function nameOf(c: Context<AppEnv>): string {
  const name = c.req.param("name") ?? "";
  if (!isFormName(name))
    throw new ProblemError("validation_failed", "The form's name is not a slug.", {
      name: [`Must be ${FORM_NAME_EXPECTED}.`],
    });
  return name;
}

export function designerRoutes(deps: {
  store: SavedFormStore;
  forms: SavedFormReader;
  campaigns: CampaignDirectory;
  allowedOrigins: readonly string[];
  widgetDir: string;
}) {
  const contextOf = (design: FormDesign) => {
    const campaign = deps.campaigns.byKeyword(design.shortcode, design.keyword.toUpperCase());
    return { campaign: campaign ?? null, allowedOrigins: deps.allowedOrigins };
  };

  /** Saves `design` as the version after `after`, or answers why not; nothing is written on a refusal. */
  async function save(c: Context<AppEnv>, name: string, design: FormDesign, after: number) {
    const problems = checkSavedDesign(design, contextOf(design));
    if (problems.length > 0) {
      const errors: Record<string, string[]> = {};
      for (const { field, message } of problems) (errors[field] ??= []).push(message);
      throw new ProblemError("validation_failed", "The form cannot be saved as it is.", errors);
    }
    const campaign = campaignScope({ shortcode: design.shortcode, keyword: design.keyword.toUpperCase() });
    const result = await deps.store.saveFormVersion(
      {
        name,
        campaign,
        design: JSON.stringify({ ...design, keyword: design.keyword.toUpperCase() }),
        author: c.get("dashboardStaff").name,
      },
      after,
    );
    if ("changed" in result) {
      const latest = result.changed;
      throw new ProblemError(
        "form_changed",
        latest
          ? `${latest.author} saved version ${latest.version} of "${name}" at ${new Date(latest.savedAt).toISOString()}; your changes are not saved: open it again and make them there.`
          : `"${name}" has no saved version yet: save it as a new form.`,
        undefined,
        {},
        { latest: latest ? toVersion(latest) : null },
      );
    }
    deps.forms.forget(name);
    return c.json(toVersion(result.saved), after === 0 ? 201 : 200, { "Cache-Control": "no-store" });
  }

  return new Hono<AppEnv>()
    .get("/", (c) => {
      const lang = /^es\b/i.test(c.req.query("lang") ?? c.req.header("accept-language") ?? "") ? "es" : "en";
      return c.html(
        `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>givekit forms</title>
<link rel="stylesheet" href="/dashboard/forms/assets/forms.css">
<script type="module" src="/dashboard/forms/assets/forms.js"></script>
</head>
<body>
<main id="designer" data-lang="${lang}" data-form-token="${escapeHtml(c.get("dashboardStaff").formToken)}"><h1>givekit</h1></main>
</body>
</html>
`,
        200,
        {
          "Content-Security-Policy": PAGE_CSP,
          "Referrer-Policy": "no-referrer",
          "Cache-Control": "no-store",
        },
      );
    })
    .get("/setup.json", async (c) =>
      c.json(
        {
          campaigns: deps.campaigns.all.map((campaign) => ({
            shortcode: campaign.shortcode,
            keyword: campaign.keyword,
            currency: campaign.currency,
            min_amount: campaign.min_amount,
            max_amount: campaign.max_amount,
            recurring_frequencies: campaign.recurring_frequencies,
          })),
          allowed_origins: deps.allowedOrigins,
          attributes: FORM_ATTRIBUTES,
          theme: Object.keys(THEME_PROPERTIES),
          forms: (await deps.store.savedForms()).map(toVersion),
        },
        200,
        { "Cache-Control": "no-store" },
      ),
    )
    .get("/preview", (c) => {
      // The design's element, its attributes as the query gives them written on it: what the snippet will hold.
      const query = c.req.query();
      const element = (query.element ?? "donate") as FormElement;
      if (!FORM_ELEMENTS.includes(element))
        throw new ProblemError("validation_failed", "The preview draws one of givekit's elements.", {
          element: [`Must be one of ${FORM_ELEMENTS.join(", ")}.`],
        });
      const design = contextOf({
        element,
        shortcode: query.shortcode ?? "",
        keyword: query.keyword ?? "",
        attributes: {},
        theme: {},
      });
      if (!design.campaign)
        throw new ProblemError("campaign_not_served", "This campaign is not served here.");
      const allowed = new Set<string>([...FORM_ATTRIBUTES[element], "shortcode", "keyword"]);
      if (element === "donate") allowed.add("form");
      const attributes = Object.entries(query)
        .filter(([name]) => allowed.has(name))
        .map(([name, value]) => ` ${name}="${escapeHtml(value)}"`)
        .join("");
      return c.html(
        `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>givekit preview</title>
<link rel="stylesheet" href="/dashboard/forms/assets/forms.css">
<script type="module" src="/dashboard/forms/assets/forms.js"></script>
<script src="/widget.js" async></script>
</head>
<body class="gk-preview">
<givekit-${element}${attributes}></givekit-${element}>
</body>
</html>
`,
        200,
        {
          "Content-Security-Policy": previewCsp(c.req.header("host")),
          "Referrer-Policy": "no-referrer",
          "Cache-Control": "no-store",
        },
      );
    })
    .get("/qr.svg", (c) => {
      const url = c.req.query("url") ?? "";
      if (!/^https?:\/\//.test(url) || url.length > QR_TEXT_MAX)
        throw new ProblemError("validation_failed", "A QR code is drawn for a web address.", {
          url: [`An http or https address of at most ${QR_TEXT_MAX} characters.`],
        });
      return c.body(qrSvg(url), 200, { "Content-Type": "image/svg+xml", "Cache-Control": "no-store" });
    })
    .get("/assets/:name", dashboardAssets(deps.widgetDir, ASSETS, "designer"))
    .get("/:name{[a-z0-9-]+\\.json}", async (c) => {
      const name = c.req.param("name").replace(/\.json$/, "");
      if (!isFormName(name)) throw new ProblemError("not_found", "No such form.");
      const versions = await deps.store.savedFormVersions(name, HISTORY_SHOWN);
      if (versions.length === 0) throw new ProblemError("form_not_found", `No form "${name}" is saved.`);
      return c.json({ versions: versions.map(toVersion) }, 200, { "Cache-Control": "no-store" });
    })
    .put("/:name", jsonBody(FORM_DESIGN_MAX_BYTES), async (c) => {
      const name = nameOf(c);
      const { design, after } = validate(SaveFormRequestSchema, c.get("body"));
      return save(c, name, design, after);
    })
    .post("/:name/restore", jsonBody(FORM_DESIGN_MAX_BYTES), async (c) => {
      const name = nameOf(c);
      const { version, after } = validate(RestoreFormRequestSchema, c.get("body"));
      const versions = await deps.store.savedFormVersions(name, Number.MAX_SAFE_INTEGER);
      const old = versions.find((each) => each.version === version);
      if (!old) throw new ProblemError("form_not_found", `"${name}" has no version ${version}.`);
      return save(c, name, JSON.parse(old.design) as FormDesign, after);
    });
}
