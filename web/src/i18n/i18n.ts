/**
 * Languages, picked from the browser and switchable; every string the client shows
 * comes from the message files in `messages/`.
 */
import type { Messages, MessageKey } from "./messages/en";
import { en } from "./messages/en";
import { it } from "./messages/it";
import { el } from "./messages/el";
import { pt } from "./messages/pt";

/** A language the client speaks. */
export type Lang = "en" | "it" | "el" | "pt";

/** The languages, in the order the switch lists them. */
export const LANGS: readonly Lang[] = ["en", "it", "el", "pt"];

/** Each language's name in itself, for the switch. */
export const LANG_NAMES: Readonly<Record<Lang, string>> = {
  en: "English",
  it: "Italiano",
  el: "Ελληνικά",
  pt: "Português",
};

const CATALOGUE: Readonly<Record<Lang, Messages>> = { en, it, el, pt };

/** localStorage key of the chosen language. */
export const LANG_STORAGE_KEY = "stella.lang";

/**
 * The language to use: the one chosen before, else the first browser language we
 * speak (by its primary subtag, so `pt-BR` gives `pt`), else English.
 */
export function detectLanguage(stored: string | null, browser: readonly string[]): Lang {
  if (stored && (LANGS as readonly string[]).includes(stored)) return stored as Lang;
  for (const tag of browser) {
    const primary = tag.toLowerCase().split("-")[0];
    if ((LANGS as readonly string[]).includes(primary)) return primary as Lang;
  }
  return "en";
}

/** Replaces `{name}` placeholders with values. */
export function format(template: string, params: Readonly<Record<string, string | number>> = {}): string {
  return template.replace(/\{(\w+)\}/g, (all, name: string) =>
    name in params ? String(params[name]) : all,
  );
}

let current: Lang = "en";
const listeners = new Set<(lang: Lang) => void>();

/** The language in use. */
export function lang(): Lang {
  return current;
}

/** The messages of the language in use. */
export function messages(): Messages {
  return CATALOGUE[current];
}

/** A message of the language in use, with its placeholders filled. */
export function t(key: MessageKey, params?: Readonly<Record<string, string | number>>): string {
  const m = CATALOGUE[current][key];
  return format(typeof m === "string" ? m : String(m), params);
}

/** Switches language, remembers the choice and tells the listeners. */
export function setLang(next: Lang, remember = true): void {
  current = next;
  if (typeof document !== "undefined") document.documentElement.lang = next;
  if (remember && typeof localStorage !== "undefined") localStorage.setItem(LANG_STORAGE_KEY, next);
  for (const l of listeners) l(next);
}

/** Calls `f` after every language switch; returns a function that stops it. */
export function onLangChange(f: (lang: Lang) => void): () => void {
  listeners.add(f);
  return () => listeners.delete(f);
}

/** Picks the language at start-up from storage and the browser. */
export function initLang(): void {
  const stored = typeof localStorage !== "undefined" ? localStorage.getItem(LANG_STORAGE_KEY) : null;
  const browser = typeof navigator !== "undefined" ? navigator.languages ?? [navigator.language] : [];
  setLang(detectLanguage(stored, browser), false);
}
