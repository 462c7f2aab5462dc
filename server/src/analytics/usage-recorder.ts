import type { UsageRecord } from '../answer/usage.js';
import type { Storage } from '../storage/port.js';
import { rollups, type RollupCell } from './rollup-writes.js';

/**
 * Rewrites the usage of a stored message, and the usage rollups with it (the chat path stores
 * usage with the message instead: conversations/store.ts append). It lives
 * beside the rollups it keeps in step; answer/usage.ts only describes a usage.
 */
export function createUsageRecorder(storage: Storage) {
  const read = `SELECT m.provider, m.model, m.prompt_tokens AS "promptTokens", m.completion_tokens AS "completionTokens", m.provider_ms AS "providerMs",
      m.created_at AS "createdAt", c.organization_id AS "organizationId", c.assistant_id AS "assistantId", c.channel_group AS channel
    FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE m.id = ?`;
  const update = 'UPDATE messages SET provider = ?, model = ?, prompt_tokens = ?, completion_tokens = ?, provider_ms = ? WHERE id = ?';
  return (messageId: string, r: UsageRecord): Promise<void> =>
    storage.tx(async (tx) => {
      const before = await tx.get<
        RollupCell & {
          provider: string | null;
          model: string | null;
          promptTokens: number | null;
          completionTokens: number | null;
          providerMs: number | null;
          createdAt: string;
        }
      >(read, [messageId]);
      if (!before) return;
      const after = {
        provider: r.provider,
        model: r.model,
        promptTokens: r.usage?.promptTokens ?? null,
        completionTokens: r.usage?.completionTokens ?? null,
        providerMs: r.providerMs,
      };
      await tx.run(update, [after.provider, after.model, after.promptTokens, after.completionTokens, after.providerMs, messageId]);
      await rollups.usageChanged(
        tx,
        before,
        before.createdAt,
        before.provider === null ? null : { ...before, provider: before.provider },
        after,
      );
    });
}
