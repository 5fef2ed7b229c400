/** doctor's "allowed origins". */
import { Finding } from "./finding";

/** ALLOWED_ORIGINS: none is a widget nobody can use; http: origins in production send card pages in clear. */
export function checkOrigins(origins: string[], nodeEnv: string | undefined): string {
  if (origins.length === 0) {
    throw new Finding(
      "ALLOWED_ORIGINS",
      "is empty: no page may use the widgets or frame the card form",
      "set ALLOWED_ORIGINS to the origins of the pages that show the widgets, e.g. https://www.example.org",
    );
  }
  const plain = origins.filter((origin) => origin.startsWith("http:"));
  if (nodeEnv === "production" && plain.length > 0) {
    throw new Finding(
      "ALLOWED_ORIGINS",
      `holds http: origins with NODE_ENV=production (${plain.join(", ")}): donors' pages must be served over https`,
      "list the https:// origins of those pages instead",
    );
  }
  return origins.join(", ");
}
