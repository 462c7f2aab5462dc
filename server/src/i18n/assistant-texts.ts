import type { Assistant } from '../assistants/service.js';
import { LOCALES, localeFor, localeLanguage, textDirection, widgetTexts } from './locales.js';
import { LOCALIZED_TEXT_KEYS, type ConnectorTexts, type DefaultMessageKey, type LocalizedTextKey, type WidgetTexts } from './texts.js';

export interface AssistantTexts {
  /** The assistant's own tag, as configured (`pt-BR`). */
  language: string;
  /** The language whose texts these are (`pt`; `en` when Parley has none for the tag). */
  textLanguage: string;
  dir: 'ltr' | 'rtl';
  strings: WidgetTexts & ConnectorTexts;
  /** The language's own texts, without the owner's: what an emptied override falls back to. */
  defaults: WidgetTexts & ConnectorTexts;
  /** The language's default fallback, handoff and welcome messages (what an assistant that kept them shows). */
  messages: Record<DefaultMessageKey, string>;
  /** Every language's text of the keys a platform shows in each reader's own language, by language. */
  localizations: Record<LocalizedTextKey, Record<string, string>>;
}

/** The same for every assistant: built once. */
const LOCALIZATIONS = Object.fromEntries(
  LOCALIZED_TEXT_KEYS.map((key) => [
    key,
    Object.fromEntries(Object.entries(LOCALES).map(([language, locale]) => [language, locale.connector[key]])),
  ]),
) as Record<LocalizedTextKey, Record<string, string>>;

/**
 * Everything a connector prints on its own (errors, the sources heading, hints) in the assistant's
 * language: the connector texts plus the widget's, with the owner's `widget.strings` over both
 * (a "Sources" label the owner renamed for the widget is renamed in Discord too). `language`: another
 * language than the assistant's (the dashboard shows a language's defaults before it is saved).
 */
export function assistantTexts(a: Pick<Assistant, 'language' | 'widget'>, language = a.language): AssistantTexts {
  const locale = localeFor(language);
  return {
    language,
    textLanguage: localeLanguage(language),
    dir: textDirection(language),
    strings: { ...locale.connector, ...widgetTexts(language, a.widget.strings) },
    defaults: { ...locale.connector, ...locale.widget },
    messages: { ...locale.defaults },
    localizations: LOCALIZATIONS,
  };
}
