import { describe, expect, it } from "vitest";
import { countries } from "./countries";

/** ISO 3166-1 alpha-2, every assigned code, and XK. */
const ISO_CODES =
  "ADAEAFAGAIALAMAOAQARASATAUAWAXAZBABBBDBEBFBGBHBIBJBLBMBNBOBQBRBSBTBVBWBYBZCACCCDCFCGCHCICKCLCMCNCOCRCUCVCWCXCYCZDEDJDKDMDODZECEEEGEHERESETFIFJFKFMFOFRGAGBGDGEGFGGGHGIGLGMGNGPGQGRGSGTGUGWGYHKHMHNHRHTHUIDIEILIMINIOIQIRISITJEJMJOJPKEKGKHKIKMKNKPKRKWKYKZLALBLCLILKLRLSLTLULVLYMAMCMDMEMFMGMHMKMLMMMNMOMPMQMRMSMTMUMVMWMXMYMZNANCNENFNGNINLNONPNRNUNZOMPAPEPFPGPHPKPLPMPNPRPSPTPWPYQARERORSRURWSASBSCSDSESGSHSISJSKSLSMSNSOSRSSSTSVSXSYSZTCTDTFTGTHTJTKTLTMTNTOTRTTTVTWTZUAUGUMUSUYUZVAVCVEVGVIVNVUWFWSXKYEYTZAZMZW";

describe("the country list", () => {
  it("offers every ISO 3166-1 country (and Kosovo, XK) once, by its two-letter code", () => {
    const codes = countries("en").map((country) => country.code);
    expect(codes).toHaveLength(250);
    expect(codes.toSorted().join("")).toBe(ISO_CODES);
    for (const code of ["US", "CA", "MX", "GB", "AD", "ZW", "XK", "SS"]) expect(codes).toContain(code);
    // Codes that name no country (the EU, the UN) or no longer do (the Netherlands Antilles).
    for (const code of ["EU", "UN", "AN", "ZZ"]) expect(codes).not.toContain(code);
  });

  it("names each country in the donor's language, in alphabetical order", () => {
    const spanish = countries("es");
    expect(spanish.find((country) => country.code === "US")?.name).toBe("Estados Unidos");
    const names = spanish.map((country) => country.name);
    expect(names).toEqual(names.toSorted((a, b) => a.localeCompare(b, "es")));
  });
});
