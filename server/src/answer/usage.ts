import type { Db } from '../db/open.js';
import type { AnswerUsage } from './providers/types.js';

/** What one answer cost: stored on its message row (migration 002) for analytics. */
export interface UsageRecord {
  provider: string;
  model: string | null;
  usage: AnswerUsage | null;
  providerMs: number | null;
}

/** Writes usage onto an assistant message; call inside the transaction that wrote the message. */
export function createUsageRecorder(db: Db) {
  const update = db.prepare('UPDATE messages SET provider = ?, model = ?, prompt_tokens = ?, completion_tokens = ?, provider_ms = ? WHERE id = ?');
  return (messageId: string, r: UsageRecord): void => {
    update.run(r.provider, r.model, r.usage?.promptTokens ?? null, r.usage?.completionTokens ?? null, r.providerMs, messageId);
  };
}
