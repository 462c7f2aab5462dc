import type { ConversationHooks } from '../conversations/store.js';
import { cellOf, rollups, type RollupCell } from './rollup-writes.js';

const CELL_BY_ID =
  'SELECT organization_id AS "organizationId", assistant_id AS "assistantId", channel_group AS channel FROM conversations WHERE id = ?';

/**
 * The rollups of conversation writes, in their transaction (rollup-writes.ts says why there): the
 * conversation store calls these (conversations/store.ts ConversationHooks; app.ts hands them
 * over); analytics owns them.
 */
export const conversationRollups = {
  async conversationStarted(tx, conversation, at) {
    await rollups.conversationStarted(tx, cellOf(conversation), at);
  },
  messageWritten(tx, messageId, m) {
    return m.citedDocumentIds?.length ? rollups.citations(tx, messageId, m.citedDocumentIds) : null;
  },
  async messagesAdded(tx, conversation, messages, at, startedAt) {
    const cell = typeof conversation === 'string' ? await tx.get<RollupCell>(CELL_BY_ID, [conversation]) : cellOf(conversation);
    // No cell: the conversation does not exist, and the messages' foreign key has failed already.
    if (!cell) return;
    const figures = messages.map((m) => ({
      answered: m.answered ?? null,
      responseMs: m.responseMs ?? null,
      rating: null,
      usage: m.usage ?? null,
    }));
    await rollups.messagesAdded(tx, cell, at, figures, startedAt);
  },
  async rated(tx, before, rating) {
    await rollups.ratingChanged(tx, before, before.createdAt, before.rating, rating);
  },
  async handoffRequested(tx, conversation, before, at) {
    await rollups.handoffMoved(tx, conversation, before, at);
  },
} satisfies Required<ConversationHooks>;
