import { ParleyError } from './parley-error.js';
import { ENGLISH_TEXTS, type BotTexts } from './texts.js';

/**
 * What the person in the chat reads when something failed. Never a stack trace, never the API
 * key's problems spelled out to a random channel member — just what they can do about it. In the
 * assistant's language (`texts`, core/texts.ts).
 */
export function friendlyErrorMessage(err: unknown, texts: BotTexts = ENGLISH_TEXTS): string {
  if (!(err instanceof ParleyError)) return texts.error;
  if (err.isRateLimited) return texts.rateLimited;
  if (err.code === 'TIMEOUT') return texts.timeout;
  if (err.isUnreachable) return texts.unreachable;
  switch (err.status) {
    case 400:
    case 413:
      return texts.tooLong;
    case 401:
    case 403:
      return texts.misconfigured;
    case 404:
      return texts.gone;
    default:
      return texts.error;
  }
}
