import { Locale } from 'discord-api-types/v10';

/**
 * A text by Parley language code (`de`, `pt`, `zh`) as Discord's `*_localizations` want it: keyed by
 * the locales Discord accepts (`de`, `pt-BR`, `zh-CN`, `zh-TW`, `en-US`, `en-GB`, `es-ES`, `es-419` …).
 * Each Discord locale takes its language's text: both Spanish locales the one Spanish text, and
 * Traditional Chinese the Simplified one, as the server does for every Chinese tag (more use to a
 * zh-TW reader than the fallback description). Languages Discord has no locale for (Arabic,
 * Hebrew, Persian) are left out: their readers see the base description.
 */
export function discordLocalizations(byLanguage: Readonly<Record<string, string>>, maxLength: number): Partial<Record<Locale, string>> {
  const localized: Partial<Record<Locale, string>> = {};
  for (const locale of Object.values(Locale)) {
    const text = byLanguage[locale.split('-')[0]!];
    if (text !== undefined) localized[locale] = truncate(text, maxLength);
  }
  return localized;
}

export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
