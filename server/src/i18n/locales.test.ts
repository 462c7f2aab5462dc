import { describe, expect, it } from 'vitest';
import { LOCALES, localeLanguage, messageInLanguage, textDirection, widgetTexts } from './locales.js';
import { CONNECTOR_TEXT_KEYS, DEFAULT_MESSAGE_KEYS, MAX_WIDGET_TEXT_LENGTH, WIDGET_TEXT_KEYS } from './texts.js';

// Issue 25: the twelve XQuAD languages plus eleven more.
const REQUIRED = [
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
];

describe('interface texts per language', () => {
  it('has a table for every required language', () => {
    expect(Object.keys(LOCALES).sort()).toEqual([...REQUIRED].sort());
  });

  it.each(Object.entries(LOCALES))('%s has every key, none empty, none longer than an owner may write', (lang, locale) => {
    const groups = [
      [locale.widget, WIDGET_TEXT_KEYS],
      [locale.connector, CONNECTOR_TEXT_KEYS],
      [locale.defaults, DEFAULT_MESSAGE_KEYS],
    ] as const;
    for (const [texts, keys] of groups) {
      expect(Object.keys(texts).sort(), lang).toEqual([...keys].sort());
      for (const [key, text] of Object.entries(texts)) {
        expect(text.trim(), `${lang}.${key}`).not.toBe('');
        expect(text.length, `${lang}.${key}`).toBeLessThanOrEqual(MAX_WIDGET_TEXT_LENGTH);
      }
    }
  });

  it.each(Object.entries(LOCALES))('%s keeps the placeholders its texts are filled with', (lang, locale) => {
    for (const key of ['open', 'dialog', 'inputLabel'] as const) expect(locale.widget[key], `${lang}.${key}`).toContain('{name}');
    expect(locale.connector.confidence, lang).toContain('{percent}');
    expect(locale.connector.askHint, lang).toContain('{example}');
    const placeholders = JSON.stringify(locale).match(/\{[a-z]+\}/gi) ?? [];
    expect(locale.connector.askAbout, lang).toContain('{topics}');
    for (const key of ['notActive', 'wrongCommand', 'askCommand'] as const)
      expect(locale.connector[key], `${lang}.${key}`).toContain('{name}');
    expect(locale.connector.askedBy, lang).toMatch(/\{user\}.*\{question\}$/s);
    expect(locale.connector.wrongCommand, lang).toContain('{command}');
    expect(new Set(placeholders), lang).toEqual(
      new Set(['{name}', '{percent}', '{example}', '{topics}', '{user}', '{question}', '{command}']),
    );
  });

  it('is translated: no language but English repeats the English sentences', () => {
    const english = new Set([...Object.values(LOCALES.en!.widget), ...Object.values(LOCALES.en!.connector)].filter((t) => t.length > 12));
    for (const [lang, locale] of Object.entries(LOCALES)) {
      if (lang === 'en') continue;
      expect(
        [...Object.values(locale.widget), ...Object.values(locale.connector)].filter((t) => english.has(t)),
        lang,
      ).toEqual([]);
    }
  });

  it("keeps Discord's command texts within its 100 characters once a long name is in", () => {
    for (const [lang, locale] of Object.entries(LOCALES)) {
      expect(locale.connector.askOption.length, lang).toBeLessThanOrEqual(100);
      expect(locale.connector.askCommand.replace('{name}', 'x'.repeat(40)).length, lang).toBeLessThanOrEqual(100);
    }
  });

  it('resolves BCP 47 tags to their language, unknown ones to English', () => {
    expect(localeLanguage('pt-BR')).toBe('pt');
    expect(localeLanguage('zh-CN')).toBe('zh');
    expect(localeLanguage('zh-Hans')).toBe('zh');
    expect(localeLanguage('DE-at')).toBe('de');
    expect(localeLanguage('iw')).toBe('he');
    expect(localeLanguage('sw')).toBe('en');
    expect(localeLanguage('x')).toBe('en');
  });

  it('says which languages are written right to left', () => {
    for (const tag of ['ar', 'ar-EG', 'he', 'he-IL', 'fa', 'fa-IR', 'ur', 'ur-PK', 'iw', 'pa-Arab'])
      expect(textDirection(tag), tag).toBe('rtl');
    for (const tag of ['en', 'de', 'zh-Hans', 'th', 'hi', 'az-Latn', 'arn', 'her']) expect(textDirection(tag), tag).toBe('ltr');
  });

  it("merges an owner's overrides over the language's texts", () => {
    const texts = widgetTexts('de-CH', { send: 'Los' });
    expect(texts.send).toBe('Los');
    expect(texts.placeholder).toBe(LOCALES.de!.widget.placeholder);
    expect(widgetTexts('xx').close).toBe('Close chat');
  });

  it("gives a default message in the assistant's language and keeps an owner's own", () => {
    const englishDefault = LOCALES.en!.defaults.fallback;
    expect(messageInLanguage('fallback', englishDefault, 'ar')).toBe(LOCALES.ar!.defaults.fallback);
    expect(messageInLanguage('fallback', LOCALES.de!.defaults.fallback, 'fr')).toBe(LOCALES.fr!.defaults.fallback);
    expect(messageInLanguage('handoff', LOCALES.en!.defaults.handoff, 'ja-JP')).toBe(LOCALES.ja!.defaults.handoff);
    expect(messageInLanguage('fallback', 'Frag bitte unser Team.', 'ar')).toBe('Frag bitte unser Team.');
    expect(messageInLanguage('welcome', LOCALES.th!.defaults.welcome, 'sw')).toBe(LOCALES.en!.defaults.welcome);
  });
});
