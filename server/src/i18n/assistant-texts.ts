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
}

/**
 * Everything a connector prints on its own (errors, the sources heading, hints) in the assistant's
 * language: the connector texts plus the widget's, with the owner's `widget.strings` over both
 * (a "Sources" label the owner renamed for the widget is renamed in Discord too).
 */
export function assistantTexts(a: Pick<Assistant, 'language' | 'widget'>): AssistantTexts {
  return {
    language: a.language,
    textLanguage: localeLanguage(a.language),
    dir: textDirection(a.language),
    strings: { ...localeFor(a.language).connector, ...widgetTexts(a.language, a.widget.strings) },
  };
}
