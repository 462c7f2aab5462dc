import { describe, expect, it } from 'vitest';
import { hasTexts, languageLabel, languageOptions, OTHER } from './languages.js';

describe('language picker', () => {
  it("names a language in the owner's language and in its own", () => {
    expect(languageLabel('de', 'en')).toBe('German — Deutsch (de)');
    expect(languageLabel('ar', 'en')).toBe('Arabic — العربية (ar)');
    expect(languageLabel('en', 'en')).toBe('English (en)');
    expect(languageLabel('fr', 'de')).toBe('Französisch — français (fr)');
  });

  it('lists every translated language, keeps an unlisted current tag, ends with "another tag"', () => {
    const options = languageOptions('gsw', 'en');
    for (const tag of ['en', 'de', 'th', 'ar', 'he', 'fa', 'id', 'pt-BR', 'zh-TW'])
      expect(
        options.some((o) => o.value === tag),
        tag,
      ).toBe(true);
    expect(options.find((o) => o.value === 'gsw')?.label).toMatch(/\(gsw\)$/);
    expect(options.at(-1)?.value).toBe(OTHER);
    expect(options.filter((o) => o.value === 'de')).toHaveLength(1);
  });

  it("knows which languages have Parley's own texts", () => {
    expect(hasTexts('pt-BR')).toBe(true);
    expect(hasTexts('iw')).toBe(true);
    expect(hasTexts('sw')).toBe(false);
  });
});
