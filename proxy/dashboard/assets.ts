/**
 * A dashboard page's built script and stylesheet (dist/widget/dashboard/, vite.config.ts), served
 * under its path's /assets/: precompressed, revalidated on each load, only the files it names.
 */
import { join } from "node:path";
import type { Context } from "hono";
import { precompressedFiles, variantResponse } from "../../http/precompressed";
import type { AppEnv } from "../context";
import { ProblemError } from "../problem";

/**
 * @param assets each file's name and its type
 * @param page what the page is called in a 404 ("dashboard", "designer")
 * @example
 * app.get("/assets/:name", dashboardAssets(widgetDir, { "forms.js": "text/javascript" }, "designer"));
 */
export function dashboardAssets(widgetDir: string, assets: Readonly<Record<string, string>>, page: string) {
  const files = precompressedFiles();
  return async (c: Context<AppEnv>) => {
    const name = c.req.param("name") ?? "";
    if (!Object.hasOwn(assets, name)) throw new ProblemError("not_found", `No such ${page} file.`);
    const variants = await files.get(join(widgetDir, "dashboard", name));
    if (!variants)
      throw new ProblemError("not_found", `The ${page} is not built yet: run \`npm run build\`.`);
    c.set("subresource", true);
    return variantResponse(
      { acceptEncoding: c.req.header("accept-encoding"), ifNoneMatch: c.req.header("if-none-match") },
      variants,
      { "Content-Type": `${assets[name]}; charset=utf-8`, "Cache-Control": "no-cache" },
    );
  };
}
