import {
  LIST_EXPECTED,
  LIST_MAX,
  PRIVACY_URL_REQUIRED,
  PROGRAM_NAME_EXPECTED,
  PROGRAM_NAME_MAX,
  TERMS_URL_REQUIRED,
} from "../../contract/element-rules";
import type { Locale } from "../i18n";
import { KEYWORD, readAttributes, refuse, SHORTCODE, text, type AttributeResult } from "../shared/attributes";

/** The attributes <givekit-optin> observes. */
export const OPTIN_ATTRIBUTES = [
  "proxy",
  "list",
  "keyword",
  "shortcode",
  "program-name",
  "terms-url",
  "privacy-url",
  "locale",
] as const;

const PROGRAM_NAME = text(PROGRAM_NAME_MAX, PROGRAM_NAME_EXPECTED);

/** Where the opt-in goes: a list, a keyword under a shortcode, or both (the list wins upstream). */
export interface OptinTarget {
  list?: string;
  keyword?: string;
  shortcode?: string;
}

export interface OptinProps {
  proxyUrl: string;
  target: OptinTarget;
  programName: string;
  termsUrl: string;
  privacyUrl: string;
  locale: Locale;
}

/**
 * Validates <givekit-optin>'s attributes. The form is never shown without a program name
 * and Terms and Privacy links, because the disclosure needs them to be informed consent.
 */
export function readOptinAttributes(get: (name: string) => string | null): AttributeResult<OptinProps> {
  return readAttributes(get, (attr) => {
    const list = attr("list", text(LIST_MAX, LIST_EXPECTED));
    const keyword = attr("keyword", KEYWORD)?.toUpperCase();
    const shortcode = attr("shortcode", SHORTCODE);
    const programName =
      attr("program-name", PROGRAM_NAME) ?? refuse("program-name", `is required: ${PROGRAM_NAME_EXPECTED}`);
    const target: OptinTarget = keyword && shortcode ? { keyword, shortcode } : {};
    if (list) target.list = list;
    else if (!keyword || !shortcode) {
      refuse(
        keyword ? "shortcode" : shortcode ? "keyword" : "list",
        'is required: name a "list", or a "keyword" and its "shortcode"',
      );
    }
    return {
      proxyUrl: attr.proxy(),
      target,
      programName,
      termsUrl: attr.url("terms-url") ?? refuse("terms-url", `is required: ${TERMS_URL_REQUIRED}`),
      privacyUrl: attr.url("privacy-url") ?? refuse("privacy-url", `is required: ${PRIVACY_URL_REQUIRED}`),
      locale: attr.locale(),
    };
  });
}
