import { ParleyError } from './parley-error.js';

/**
 * What the person in the chat reads when something failed. Never a stack trace, never the API
 * key's problems spelled out to a random channel member — just what they can do about it.
 */
export function friendlyErrorMessage(err: unknown): string {
  if (!(err instanceof ParleyError)) return "Sorry, something went wrong while I was answering. Please try again.";
  if (err.isRateLimited) return "I'm busy, try again in a minute.";
  if (err.code === 'TIMEOUT') return 'Sorry, that took too long to answer. Please try again in a moment.';
  if (err.isUnreachable) return "Sorry, I can't reach my knowledge service right now. Please try again shortly.";
  switch (err.status) {
    case 400:
    case 413:
      return "Sorry, I couldn't process that question. Try a shorter question (at most 4,000 characters).";
    case 401:
    case 403:
      return "Sorry, I'm not configured correctly (my access to the assistant was refused). Please tell an administrator.";
    case 404:
      return "Sorry, the assistant I'm connected to doesn't exist anymore. Please tell an administrator.";
    default:
      return 'Sorry, something went wrong on my side. Please try again in a moment.';
  }
}
