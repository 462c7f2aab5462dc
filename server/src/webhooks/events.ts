import type { Assistant } from '../assistants/service.js';
import type { Conversation, Message } from '../conversations/store.js';
import type { Db } from '../db/open.js';
import type { KnowledgeBaseChange } from '../knowledge/store.js';
import type { Clock } from '../lib/clock.js';
import { createOutbox, type EventDraft } from './outbox.js';

/**
 * The events of API.md §9, each built from the change that causes it. Every method must run
 * inside the transaction that writes that change (the outbox rows commit with it). Payloads
 * are documented, with examples, in docs/webhooks.md.
 */

export interface ChatTurn {
  conversation: Conversation;
  isNewConversation: boolean;
  userMessage: Message;
  assistantMessage: Message;
  /** The metadata the client sent with this message (`{}` when none). */
  metadata: Record<string, unknown>;
  confidence: number;
  sources: { title: string; url: string | null }[];
}

/** The parts of an assistant whose change redeploys it somewhere (widget, bots, model). */
const DEPLOYMENT_FIELDS = ['widget', 'discord', 'slack', 'teams', 'model'] as const;

const conversationData = (c: Conversation) => ({
  integrationId: c.assistantId, sessionId: c.sessionId, channel: c.channel, metadata: c.metadata, startedAt: c.startedAt,
});

const messageCreated = (c: Conversation, message: Message): EventDraft => ({
  type: 'conversation.message.created', assistantIds: [c.assistantId], data: { integrationId: c.assistantId, sessionId: c.sessionId, message },
});

/** JSON with sorted keys, so that two equal configurations compare equal whatever their key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (v && typeof v === 'object' && !Array.isArray(v)
    ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    : v));
}

export function createWebhookEvents(db: Db, clock: Clock) {
  const outbox = createOutbox(db, clock);
  const messageCount = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM messages WHERE conversation_id = ?');
  const kbRow = db.prepare<[string], { organization_id: string; name: string; updated_at: string }>('SELECT organization_id, name, updated_at FROM knowledge_bases WHERE id = ?');
  const kbCounts = db.prepare<[string], { documents: number; chunks: number }>('SELECT count(*) AS documents, coalesce(sum(chunk_count), 0) AS chunks FROM documents WHERE knowledge_base_id = ?');
  const kbAssistants = db.prepare<[string], { assistant_id: string }>('SELECT assistant_id FROM assistant_knowledge_bases WHERE knowledge_base_id = ?');

  return {
    outbox,

    /** A chat request's user message and answer (and the conversation, when it is new). */
    chatTurn(t: ChatTurn): void {
      const c = t.conversation;
      const only = [c.assistantId];
      const drafts: EventDraft[] = [];
      if (t.isNewConversation) {
        drafts.push({ type: 'conversation.started', assistantIds: only, data: conversationData(c) });
        drafts.push({ type: 'conversation.created', assistantIds: only, data: conversationData(c) });
      }
      drafts.push(
        // Exactly the seed's shape: {integrationId, sessionId, message, metadata}.
        { type: 'message.received', assistantIds: only, data: { integrationId: c.assistantId, sessionId: c.sessionId, message: t.userMessage.content, metadata: t.metadata } },
        messageCreated(c, t.userMessage),
        {
          type: 'message.sent', assistantIds: only,
          data: {
            integrationId: c.assistantId, sessionId: c.sessionId, message: t.assistantMessage.content, metadata: c.metadata,
            confidence: t.confidence, sources: t.sources, messageId: t.assistantMessage.id, role: 'assistant',
          },
        },
        messageCreated(c, t.assistantMessage),
      );
      outbox.enqueue(c.organizationId, drafts);
    },

    /** A reply written by a person (`POST /conversations/:sessionId/messages`). */
    humanAgentMessage(c: Conversation, message: Message): void {
      outbox.enqueue(c.organizationId, [
        {
          type: 'message.sent', assistantIds: [c.assistantId],
          data: {
            integrationId: c.assistantId, sessionId: c.sessionId, message: message.content, metadata: c.metadata,
            confidence: null, sources: [], messageId: message.id, role: 'human_agent',
          },
        },
        messageCreated(c, message),
      ]);
    },

    /** `reason`: `api` for `POST /conversations/:id/end`, `idle` after 30 minutes without a message. */
    conversationEnded(c: Conversation, reason: 'api' | 'idle', endedAt: string): void {
      outbox.enqueue(c.organizationId, [{
        type: 'conversation.ended', assistantIds: [c.assistantId],
        data: { ...conversationData(c), reason, lastMessageAt: c.lastMessageAt, endedAt, messageCount: messageCount.get(c.id)?.n ?? 0 },
      }]);
    },

    /** Call before the base's row is deleted (its assistants are found through their links). */
    knowledgeBaseUpdated(change: KnowledgeBaseChange): void {
      const kb = kbRow.get(change.knowledgeBaseId);
      if (!kb) return;
      const counts = kbCounts.get(change.knowledgeBaseId) ?? { documents: 0, chunks: 0 };
      const assistantIds = kbAssistants.all(change.knowledgeBaseId).map((r) => r.assistant_id);
      outbox.enqueue(kb.organization_id, [{
        type: 'knowledge_base.updated', assistantIds,
        data: {
          knowledgeBaseId: change.knowledgeBaseId, name: kb.name, change: change.change,
          document: 'document' in change ? change.document : null,
          ...('replacedDocumentIds' in change && change.replacedDocumentIds?.length ? { replacedDocumentIds: change.replacedDocumentIds } : {}),
          documentCount: counts.documents, chunkCount: counts.chunks, updatedAt: kb.updated_at,
        },
      }]);
    },

    /** Fires only when the widget, a bot's settings or the model changed. */
    deploymentUpdated(before: Assistant, after: Assistant): void {
      const changed = DEPLOYMENT_FIELDS.filter((f) => canonical(before[f]) !== canonical(after[f]));
      if (!changed.length) return;
      outbox.enqueue(after.organizationId, [{
        type: 'app.deployment.updated', assistantIds: [after.id],
        data: {
          appId: after.id, name: after.name, type: after.type, changed,
          widget: after.widget, discord: after.discord, slack: after.slack, teams: after.teams,
          // Provider and model name only: whatever else a provider's settings hold stays here.
          model: { provider: after.model.provider, name: after.model.name ?? null },
          updatedAt: after.updatedAt,
        },
      }]);
    },

    /** `POST /webhooks/:id/test`: one event for one endpoint. Returns the event id (`webhook-id`). */
    test(endpoint: { id: string; organizationId: string }): string | null {
      const [id] = outbox.enqueue(endpoint.organizationId, [{
        type: 'webhook.test', assistantIds: null,
        data: { webhookId: endpoint.id, message: 'A test event from Parley: your endpoint receives and verifies webhooks.' },
      }], endpoint.id);
      return id ?? null;
    },
  };
}

export type WebhookEvents = ReturnType<typeof createWebhookEvents>;
