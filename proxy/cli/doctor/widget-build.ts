/** doctor's "widget build": the built widget is there, and not older than its sources. */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "../../config";
import { at, Finding } from "./finding";

/** The file the script tag loads: the widget build is there or it is not. */
const WIDGET_ENTRY = "widget.js";
/** What the widget build is made from (vite.config.ts): its sources, and the contract it imports. */
const WIDGET_SOURCE_DIRS = ["widget", "contract"];

/** The newest source file under the package's widget sources (ms), or null without sources. */
function newestWidgetSource(root: string): { path: string; at: number } | null {
  let newest: { path: string; at: number } | null = null;
  for (const dir of WIDGET_SOURCE_DIRS) {
    const full = join(root, dir);
    if (!existsSync(full)) continue;
    for (const name of readdirSync(full, { recursive: true })) {
      const file = String(name);
      if (!/\.(ts|tsx|css|html|json)$/.test(file) || /\.test\.tsx?$/.test(file)) continue;
      const changedAt = statSync(join(full, file)).mtimeMs;
      if (!newest || changedAt > newest.at) newest = { path: join(dir, file), at: changedAt };
    }
  }
  return newest;
}

/** Whether the built widget is there, and not older than the sources beside the package. */
export function checkWidgetBuild(widgetDir: string, root = packageRoot()): string {
  const entry = join(widgetDir, WIDGET_ENTRY);
  if (!existsSync(entry)) {
    throw new Finding(
      "GIVEKIT_WIDGET_DIR",
      `${entry} is missing`,
      "run `npm run build`, or set GIVEKIT_WIDGET_DIR to the built widget",
    );
  }
  const builtAt = statSync(entry).mtimeMs;
  const newest = newestWidgetSource(root);
  if (newest && newest.at > builtAt) {
    throw new Finding(
      "GIVEKIT_WIDGET_DIR",
      `${entry} is older than ${newest.path} (built ${at(builtAt)}, source changed ${at(newest.at)})`,
      "run `npm run build`",
    );
  }
  return `built ${at(builtAt)} in ${widgetDir}`;
}
