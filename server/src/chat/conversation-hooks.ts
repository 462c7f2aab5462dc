import { conversationRollups } from '../analytics/conversation-rollups.js';
import type { ConversationHooks } from '../conversations/store.js';
import { recordRatedDown } from './knowledge-gaps.js';

/**
 * What a conversation write brings along in its transaction, for the store app.ts makes: the
 * analytics rollups, and a knowledge gap (cause rated_down) when an answer is rated down, after
 * its rollup as before. Chat owns the gaps; the store (conversations/) imports neither.
 */
export const conversationHooks: ConversationHooks = {
  ...conversationRollups,
  async rated(tx, before, rating, at) {
    await conversationRollups.rated(tx, before, rating);
    if (rating === 'down') await recordRatedDown(tx, before.conversationId, before.messageId, at);
  },
};
