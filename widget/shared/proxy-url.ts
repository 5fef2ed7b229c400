let scriptOrigin: string | null = null;

/** Remembers where the widget was loaded from: the proxy by default. */
export function rememberScriptOrigin(url: string | undefined | null): void {
  if (!url) return;
  try {
    scriptOrigin = new URL(url, location.href).origin;
  } catch {
    // An unparsable URL leaves the default as it was.
  }
}

/** The proxy to talk to: the `proxy` attribute, else the script's own origin, else the page's. */
export function resolveProxyUrl(attribute: string | null): string | null {
  const value = attribute ?? scriptOrigin ?? location.origin;
  try {
    const url = new URL(value, location.href);
    if (url.protocol !== "https:" && url.protocol !== "http:") return null;
    return url.origin + url.pathname.replace(/\/+$/, "");
  } catch {
    return null;
  }
}
