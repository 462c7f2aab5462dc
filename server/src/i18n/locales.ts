import { ar } from './locales/ar.js';
import { de } from './locales/de.js';
import { el } from './locales/el.js';
import { en } from './locales/en.js';
import { es } from './locales/es.js';
import { fa } from './locales/fa.js';
import { fr } from './locales/fr.js';
import { he } from './locales/he.js';
import { hi } from './locales/hi.js';
import { id } from './locales/id.js';
import { it } from './locales/it.js';
import { ja } from './locales/ja.js';
import { ko } from './locales/ko.js';
import { nl } from './locales/nl.js';
import { pl } from './locales/pl.js';
import { pt } from './locales/pt.js';
import { ro } from './locales/ro.js';
import { ru } from './locales/ru.js';
import { th } from './locales/th.js';
import { tr } from './locales/tr.js';
import { uk } from './locales/uk.js';
import { vi } from './locales/vi.js';
import { zh } from './locales/zh.js';
import type { DefaultMessageKey, Locale, WidgetTexts } from './texts.js';

/** Every language with its own texts, by primary language subtag. */
export const LOCALES: Readonly<Record<string, Locale>> = {
  en,
  de,
  es,
  ru,
  zh,
  ar,
  hi,
  th,
  vi,
  tr,
  el,
  ro,
  fr,
  it,
  pt,
  nl,
  pl,
  ja,
  ko,
  he,
  fa,
  uk,
  id,
};

/** Tags retired from the registry that browsers and old systems still send. */
const LEGACY: Readonly<Record<string, string>> = { iw: 'he', in: 'id', ji: 'yi' };

/** The primary subtag, lowercased, of a BCP 47 tag (`pt-BR` → `pt`, `zh-Hans-CN` → `zh`, `IW` → `he`). */
export function primaryLanguage(tag: string): string {
  const primary = tag.trim().split(/[-_]/)[0]!.toLowerCase();
  return LEGACY[primary] ?? primary;
}

/**
 * The language whose texts a tag gets: its primary subtag when Parley has that language,
 * English otherwise (docs/api-spec.md §12). All Chinese tags get the Simplified table: there is no
 * Traditional one yet, and Simplified is more use to a zh-TW reader than English.
 */
export function localeLanguage(tag: string): string {
  const primary = primaryLanguage(tag);
  return Object.hasOwn(LOCALES, primary) ? primary : 'en';
}

export function localeFor(tag: string): Locale {
  return LOCALES[localeLanguage(tag)]!;
}

/** Written right to left: Arabic, Hebrew, Persian, Urdu and the other languages of those scripts. */
const RTL_LANGUAGES = new Set(['ar', 'he', 'fa', 'ur', 'ps', 'yi', 'dv', 'ckb', 'sd', 'ug']);
const RTL_SCRIPTS = new Set(['arab', 'hebr', 'thaa', 'syrc', 'nkoo', 'adlm', 'rohg']);

/** `rtl` for a right-to-left language; a script subtag decides when there is one (`pa-Arab`, `az-Latn`). */
export function textDirection(tag: string): 'ltr' | 'rtl' {
  const script = tag
    .split(/[-_]/)
    .slice(1)
    .find((part) => /^[a-z]{4}$/i.test(part));
  if (script) return RTL_SCRIPTS.has(script.toLowerCase()) ? 'rtl' : 'ltr';
  return RTL_LANGUAGES.has(primaryLanguage(tag)) ? 'rtl' : 'ltr';
}

/** Every language's default of one message: how a stored text is recognised as "not the owner's own". */
const DEFAULT_TEXTS: Readonly<Record<DefaultMessageKey, ReadonlySet<string>>> = {
  fallback: new Set(Object.values(LOCALES).map((l) => l.defaults.fallback)),
  handoff: new Set(Object.values(LOCALES).map((l) => l.defaults.handoff)),
  welcome: new Set(Object.values(LOCALES).map((l) => l.defaults.welcome)),
};

/**
 * The message to show: the owner's own text as written, or, when the stored text is one of
 * Parley's defaults (in any language: the schema stores the English one when the owner gave
 * none, and an assistant may change language later), the default in the assistant's language.
 */
export function messageInLanguage(key: DefaultMessageKey, stored: string, language: string): string {
  return DEFAULT_TEXTS[key].has(stored) ? localeFor(language).defaults[key] : stored;
}

/** The widget's texts for a language, with the owner's overrides (`widget.strings`, never empty) on top. */
export function widgetTexts(language: string, overrides: Partial<WidgetTexts> = {}): WidgetTexts {
  return { ...localeFor(language).widget, ...overrides };
}
