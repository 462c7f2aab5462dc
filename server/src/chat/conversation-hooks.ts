import type { ConversationHooks } from '../conversations/store.js';
import { recordRatedDown } from './knowledge-gaps.js';

/**
 * Chat's part of a conversation write, in its transaction: an answer rated down becomes a
 * knowledge gap (cause rated_down). app.ts passes it to the store after analytics' rollups
 * (combineHooks), so the gap follows the rating's rollup as before; the store imports neither.
 */
export const knowledgeGapHooks: ConversationHooks = {
  async rated(tx, before, rating, at) {
    if (rating === 'down') await recordRatedDown(tx, before.conversationId, before.messageId, at);
  },
};
