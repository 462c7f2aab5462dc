import type { AssistantConfig } from '../assistants/schemas.js';
import { messageInLanguage } from './locales.js';

type WithMessages = Partial<Pick<AssistantConfig, 'language' | 'fallback' | 'widget'>>;

/**
 * An assistant's fallback, handoff and welcome messages as it shows them, on every read: a stored
 * default of any language (the schema stores the English one when the owner gave none; a form may
 * send back the one it showed) becomes the default in the assistant's own language, so the API,
 * the dashboard and chat all show the same text, and a language change switches it; an owner's own
 * text stays as written. A config missing a part (a row written by hand) is left as it is.
 */
export function withMessagesInLanguage<C extends WithMessages>(config: C): C {
  const language = config.language ?? 'en';
  const { fallback, widget } = config;
  return {
    ...config,
    ...(fallback && typeof fallback.message === 'string'
      ? {
          fallback: {
            ...fallback,
            message: messageInLanguage('fallback', fallback.message, language),
            ...(fallback.handoff && typeof fallback.handoff.message === 'string'
              ? { handoff: { ...fallback.handoff, message: messageInLanguage('handoff', fallback.handoff.message, language) } }
              : {}),
          },
        }
      : {}),
    ...(widget && typeof widget.welcomeMessage === 'string'
      ? { widget: { ...widget, welcomeMessage: messageInLanguage('welcome', widget.welcomeMessage, language) } }
      : {}),
  };
}
