import { describe, expect, it } from "vitest";
import { readOptinAttributes } from "./attributes";

const complete: Record<string, string> = {
  proxy: "https://proxy.example.org",
  list: "Hope Alerts",
  "program-name": "Hope Shelter",
  "terms-url": "https://hope.example.org/sms-terms",
  "privacy-url": "https://hope.example.org/privacy",
};

function read(attributes: Record<string, string | undefined>) {
  return readOptinAttributes((name) => attributes[name] ?? null);
}

function problemOf(attributes: Record<string, string | undefined>): string {
  const result = read(attributes);
  if (result.ok) throw new Error("expected the attributes to be refused");
  return result.problem;
}

describe("<givekit-optin> attributes", () => {
  it("accepts a list with the program name and both links", () => {
    const result = read(complete);
    expect(result).toEqual({
      ok: true,
      props: {
        proxyUrl: "https://proxy.example.org",
        target: { list: "Hope Alerts" },
        programName: "Hope Shelter",
        termsUrl: "https://hope.example.org/sms-terms",
        privacyUrl: "https://hope.example.org/privacy",
        locale: "en",
      },
    });
  });

  it("accepts a keyword and shortcode instead of a list, and a Spanish locale; an unknown locale is no refusal", () => {
    const result = read({
      ...complete,
      list: undefined,
      keyword: "hope",
      shortcode: "71777",
      locale: "es-MX",
    });
    expect(result.ok && result.props.target).toEqual({ keyword: "HOPE", shortcode: "71777" });
    expect(result.ok && result.props.locale).toBe("es");
    const unknown = read({ ...complete, locale: "xx" });
    expect(unknown.ok && unknown.props.locale).toBe("en");
  });

  it.each(["program-name", "terms-url", "privacy-url"])("refuses to render without %s, naming it", (name) => {
    expect(problemOf({ ...complete, [name]: undefined })).toContain(`"${name}"`);
  });

  it("refuses an empty program name", () => {
    expect(problemOf({ ...complete, "program-name": "   " })).toContain('"program-name"');
  });

  it.each(["javascript:alert(1)", "data:text/html,hi", "ftp://example.org/terms"])(
    "refuses a terms link that is not http or https: %s",
    (url) => {
      expect(problemOf({ ...complete, "terms-url": url })).toContain('"terms-url"');
    },
  );

  it("resolves a relative privacy link against the page", () => {
    const result = read({ ...complete, "privacy-url": "/privacy" });
    expect(result.ok && result.props.privacyUrl).toBe(new URL("/privacy", location.href).href);
  });

  it("needs a list, or a keyword with its shortcode", () => {
    expect(problemOf({ ...complete, list: undefined })).toContain('"list"');
    expect(problemOf({ ...complete, list: undefined, keyword: "HOPE" })).toContain('"shortcode"');
    expect(problemOf({ ...complete, list: undefined, shortcode: "71777" })).toContain('"keyword"');
  });

  it("refuses a malformed keyword, shortcode or proxy", () => {
    expect(problemOf({ ...complete, keyword: "H!", shortcode: "71777" })).toContain('"keyword"');
    expect(problemOf({ ...complete, keyword: "HOPE", shortcode: "7a" })).toContain('"shortcode"');
    expect(problemOf({ ...complete, proxy: "javascript:alert(1)" })).toContain('"proxy"');
  });
});
