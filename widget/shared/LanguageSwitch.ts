import { signal } from "@preact/signals-core";
import { h } from "preact";
import type { LanguageSwitchProps, languageSwitch } from "./language-switch";
import { reactive } from "./reactive";

/** The switch's code and the languages' names: a chunk of their own (language-switch.ts). */
const loaded = signal<typeof languageSwitch | null>(null);
let fetching = false;

/** Fetches the switch once (again after a failure). */
function fetchSwitch(): void {
  if (fetching) return;
  fetching = true;
  import("./language-switch").then(
    (module) => (loaded.value = module.languageSwitch),
    () => (fetching = false),
  );
}

/**
 * The language switch (language-switch.ts), fetched only by a form whose `locales` names two or
 * more languages: a form in one language carries neither its code nor the languages' names.
 * Nothing until it has come; its room is kept (forms.css, `.gk-language-room`).
 */
export const LanguageSwitch = reactive((props: LanguageSwitchProps) => {
  fetchSwitch();
  return loaded.value?.(h, props) ?? null;
});
