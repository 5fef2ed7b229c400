import type { Locale } from "../../i18n";

// ISO 3166-1 alpha-2 codes, grouped by first letter: "ADE…" is AD, AE…; names come from the
// browser (Intl.DisplayNames).
const CODES =
  "ADEFGILMOQRSTUWXZ BABDEFGHIJLMNOQRSTVWYZ CACDFGHIKLMNORUVWXYZ DEJKMOZ ECEGHRST FIJKMOR GABDEFGHILMNPQRSTUWY HKMNRTU IDELMNOQRST JEMOP KEGHIMNPRWYZ LABCIKRSTUVY MACDEFGHKLMNOPQRSTUVWXYZ NACEFGILOPRUZ OM PAEFGHKLMNRSTWY QA REOSUW SABCDEGHIJKLMNORSTVXYZ TCDFGHJKLMNORTVWZ UAGMSYZ VACEGINU WFS XK YET ZAMW";

const cache = new Map<Locale, { code: string; name: string }[]>();

/** Every country as {code, name} in the donor's language, sorted by name. */
export function countries(locale: Locale): { code: string; name: string }[] {
  let list = cache.get(locale);
  if (!list) {
    const names = new Intl.DisplayNames([locale], { type: "region" });
    const codes = CODES.split(" ").flatMap((group) =>
      group
        .slice(1)
        .split("")
        .map((second) => group[0] + second),
    );
    list = codes.map((code) => ({ code, name: names.of(code) ?? code }));
    list.sort((a, b) => a.name.localeCompare(b.name, locale));
    cache.set(locale, list);
  }
  return list;
}
