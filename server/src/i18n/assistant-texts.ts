import type { Assistant } from '../assistants/service.js';
import { localeFor, localeLanguage, textDirection, widgetTexts } from './locales.js';
import type { ConnectorTexts, WidgetTexts } from './texts.js';

export interface AssistantTexts {
  /** The assistant's own tag, as configured (`pt-BR`). */
  language: string;
  /** The language whose texts these are (`pt`; `en` when Parley has none for the tag). */
  textLanguage: string;
  dir: 'ltr' | 'rtl';
  strings: WidgetTexts & ConnectorTexts;
  /** The language's own texts, without the owner's: what an emptied override falls back to. */
  defaults: WidgetTexts & ConnectorTexts;
}

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
  };
}
