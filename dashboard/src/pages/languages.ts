// The assistant's language as a picker with names (issue 25). The tags listed first are the ones
// Parley has interface texts for (server/src/i18n/locales.ts): the widget, the bots and the default
// messages speak them; any other tag answers in that language with English interface texts.

/** Languages with their own interface texts, as server/src/i18n/locales.ts has them. */
export const TRANSLATED = [
  'en',
  'de',
  'es',
  'ru',
  'zh',
  'ar',
  'hi',
  'th',
  'vi',
  'tr',
  'el',
  'ro',
  'fr',
  'it',
  'pt',
  'nl',
  'pl',
  'ja',
  'ko',
  'he',
  'fa',
  'uk',
  'id',
] as const;
/** Regional tags owners often want, and languages answered in with English interface texts. */
const MORE = [
  'en-GB',
  'en-US',
  'pt-BR',
  'pt-PT',
  'zh-CN',
  'zh-TW',
  'es-MX',
  'fr-CA',
  'ur',
  'bn',
  'ms',
  'sw',
  'cs',
  'sk',
  'hu',
  'bg',
  'hr',
  'sr',
  'sl',
  'sv',
  'da',
  'nb',
  'fi',
  'et',
  'lv',
  'lt',
  'ca',
  'ta',
] as const;

/** The value of the picker's last option: the owner types a tag of their own. */
export const OTHER = 'other';

export function hasTexts(tag: string): boolean {
  const primary = tag.split('-')[0]!.toLowerCase();
  return (TRANSLATED as readonly string[]).includes(primary === 'iw' ? 'he' : primary === 'in' ? 'id' : primary);
}

function displayName(tag: string, inLocale: string): string | null {
  try {
    const name = new Intl.DisplayNames([inLocale], { type: 'language' }).of(tag);
    return name && name !== tag ? name : null;
  } catch {
    return null;
  }
}

/** "German — Deutsch (de)": the name in the owner's language, then its own name when that differs. */
export function languageLabel(tag: string, ownerLocale: string): string {
  const own = displayName(tag, ownerLocale);
  const native = displayName(tag, tag);
  const name = own && native && native.toLowerCase() !== own.toLowerCase() ? `${own} — ${native}` : (own ?? native ?? tag);
  return `${name} (${tag})`;
}

/** Every language to pick, by name in the owner's language; the current tag is always among them. */
export function languageOptions(current: string, ownerLocale: string): Array<{ value: string; label: string }> {
  const tags = [...TRANSLATED, ...MORE] as string[];
  if (current && !tags.some((t) => t.toLowerCase() === current.toLowerCase())) tags.push(current);
  const options = tags.map((tag) => ({ value: tag, label: languageLabel(tag, ownerLocale) }));
  options.sort((a, b) => a.label.localeCompare(b.label, ownerLocale));
  return [...options, { value: OTHER, label: 'Another language tag…' }];
}
