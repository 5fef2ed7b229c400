import type { Locale } from ".";
import { frameEn, type FrameMessages } from "./frame-en";

/**
 * The card frame's strings by language: English inside the frame's script, each other language
 * a chunk of its own, fetched only by a frame that speaks it.
 */
export const FRAME_CATALOGS: Record<Locale, () => Promise<FrameMessages>> = {
  en: () => Promise.resolve(frameEn),
  es: () => import("./frame-es").then((module) => module.frameEs),
  fr: () => import("./frame-fr").then((module) => module.frameFr),
  "pt-BR": () => import("./frame-pt-BR").then((module) => module.framePtBR),
  "zh-Hans": () => import("./frame-zh-Hans").then((module) => module.frameZhHans),
  "zh-Hant": () => import("./frame-zh-Hant").then((module) => module.frameZhHant),
  vi: () => import("./frame-vi").then((module) => module.frameVi),
  tl: () => import("./frame-tl").then((module) => module.frameTl),
  ko: () => import("./frame-ko").then((module) => module.frameKo),
  ar: () => import("./frame-ar").then((module) => module.frameAr),
  ru: () => import("./frame-ru").then((module) => module.frameRu),
  ht: () => import("./frame-ht").then((module) => module.frameHt),
};
