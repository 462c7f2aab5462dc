import { rollups, type RollupCell } from '../analytics/rollup-writes.js';
import type { Db } from '../db/open.js';
import type { AnswerUsage } from './providers/types.js';

/** What one answer cost: stored on its message row (migration 002) for analytics. */
export interface UsageRecord {
  provider: string;
  model: string | null;
  usage: AnswerUsage | null;
  providerMs: number | null;
}

/**
 * Rewrites the usage of a stored message, and the usage rollups with it (the chat path stores
 * usage with the message instead: conversations/store.ts append).
 */
export function createUsageRecorder(db: Db) {
  const read = db.prepare(`SELECT m.provider, m.model, m.prompt_tokens AS promptTokens, m.completion_tokens AS completionTokens, m.provider_ms AS providerMs,
      m.created_at AS createdAt, c.organization_id AS organizationId, c.assistant_id AS assistantId, c.channel_group AS channel
    FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE m.id = ?`);
  const update = db.prepare('UPDATE messages SET provider = ?, model = ?, prompt_tokens = ?, completion_tokens = ?, provider_ms = ? WHERE id = ?');
  return db.transaction((messageId: string, r: UsageRecord): void => {
    const before = read.get(messageId) as (RollupCell & { provider: string | null; model: string | null; promptTokens: number | null;
      completionTokens: number | null; providerMs: number | null; createdAt: string }) | undefined;
    if (!before) return;
    const after = { provider: r.provider, model: r.model, promptTokens: r.usage?.promptTokens ?? null, completionTokens: r.usage?.completionTokens ?? null, providerMs: r.providerMs };
    update.run(after.provider, after.model, after.promptTokens, after.completionTokens, after.providerMs, messageId);
    rollups.usageChanged(db, before, before.createdAt, before.provider === null ? null : { ...before, provider: before.provider }, after);
  });
}
