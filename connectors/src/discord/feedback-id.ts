import { randomBytes } from 'node:crypto';
import type { FeedbackRating } from '../core/parley-types.js';

/** Discord caps a button's custom_id at 100 characters. */
export const CUSTOM_ID_LIMIT = 100;
const PREFIX = 'pf';

export interface FeedbackTarget {
  rating: FeedbackRating;
  messageId: string;
  sessionId: string;
}

export interface FeedbackIdCodec {
  encode(target: FeedbackTarget): string;
  /** undefined when the id is not ours, or points into a memory that a restart has wiped. */
  decode(customId: string): FeedbackTarget | undefined;
}

/**
 * Buttons carry everything needed to post feedback in their custom_id (`pf|up|<messageId>|<sessionId>`),
 * so a click works after a restart and in HTTP mode without shared state. `|` cannot occur in a
 * session id, so the last field is unambiguous. Only when that would exceed Discord's 100
 * characters (a long messageId format) the target is remembered in a bounded in-process map
 * and the id carries a short key instead — those buttons expire on restart, which decode reports.
 */
export function createFeedbackIdCodec(capacity = 5000): FeedbackIdCodec {
  const remembered = new Map<string, Omit<FeedbackTarget, 'rating'>>();
  return {
    encode(target) {
      const inline = `${PREFIX}|${target.rating}|${target.messageId}|${target.sessionId}`;
      if (inline.length <= CUSTOM_ID_LIMIT) return inline;
      const key = randomBytes(9).toString('base64url');
      remembered.set(key, { messageId: target.messageId, sessionId: target.sessionId });
      // A Map iterates in insertion order: dropping the first key evicts the oldest answer.
      if (remembered.size > capacity) remembered.delete(remembered.keys().next().value as string);
      return `${PREFIX}|${target.rating}|#${key}`;
    },
    decode(customId) {
      const parts = customId.split('|');
      if (parts[0] !== PREFIX || parts.length < 3) return undefined;
      const rating = parts[1];
      if (rating !== 'up' && rating !== 'down') return undefined;
      if (parts.length === 3 && parts[2]?.startsWith('#')) {
        const found = remembered.get(parts[2].slice(1));
        return found ? { rating, ...found } : undefined;
      }
      const sessionId = parts[parts.length - 1] ?? '';
      const messageId = parts.slice(2, -1).join('|');
      if (messageId === '' || sessionId === '') return undefined;
      return { rating, messageId, sessionId };
    },
  };
}
