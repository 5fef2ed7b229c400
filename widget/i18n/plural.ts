/**
 * One of a count's phrasings by its language's plural rules (Intl.PluralRules): Russian's one,
 * few and many, Arabic's six, a language without plurals its `other` alone.
 *
 * @example
 * plural("ru", 3, { one: "3 донор", few: "3 донора", many: "3 доноров", other: "3 донора" }); // "3 донора"
 */
export function plural(
  tag: string,
  count: number,
  forms: Partial<Record<Intl.LDMLPluralRule, string>> & { other: string },
): string {
  return forms[new Intl.PluralRules(tag).select(count)] ?? forms.other;
}
