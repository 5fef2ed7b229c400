import { en } from "./en";
import { es } from "./es";
import { fr } from "./fr";
import { ptBR } from "./pt-BR";
import { zhHans } from "./zh-Hans";
import { zhHant } from "./zh-Hant";
import { vi } from "./vi";
import { tl } from "./tl";
import { ko } from "./ko";
import { ar } from "./ar";
import { ru } from "./ru";
import { ht } from "./ht";
import type { Locale, MessageSource, Messages } from ".";

const CATALOGS: Record<Locale, Messages> = {
  en,
  es,
  fr,
  "pt-BR": ptBR,
  "zh-Hans": zhHans,
  "zh-Hant": zhHant,
  vi,
  tl,
  ko,
  ar,
  ru,
  ht,
};

/** Every section of every language, inside the bundle: givekit.js's source, and the tests'. */
export const bundledMessages: MessageSource = (locale) => Promise.resolve(CATALOGS[locale]);
