import type { Assistant } from '../assistants/service.js';
import type { Conversation, Message } from '../conversations/store.js';
import type { KnowledgeBaseChange } from '../knowledge/store.js';
import type { Clock } from '../lib/clock.js';
import type { Queryable, Storage, Tx } from '../storage/port.js';
import type { EventDraft, Subscriber } from './fan-out.js';
import { createOutbox, type Outbox } from './outbox.js';

/**
 * The events of docs/api-spec.md §9, each built from the change that causes it. Every emitter takes the
 * `Tx` of the transaction that writes that change (the outbox rows commit with it), so the
 * compiler refuses an event written outside its transaction. Payloads are documented, with
 * examples, in docs/webhooks.md.
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
  integrationId: c.assistantId,
  sessionId: c.sessionId,
  channel: c.channel,
  metadata: c.metadata,
  startedAt: c.startedAt,
});

const messageCreated = (c: Conversation, message: Message): EventDraft => ({
  type: 'conversation.message.created',
  assistantIds: [c.assistantId],
  data: { integrationId: c.assistantId, sessionId: c.sessionId, message },
});

/** JSON with sorted keys, so that two equal configurations compare equal whatever their key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

interface KbRow {
  organization_id: string;
  name: string;
  updated_at: string;
}
interface KbCounts {
  documents: number;
  chunks: number;
}

const SQL = {
  messageCount: 'SELECT count(*) AS n FROM messages WHERE conversation_id = ?',
  kbRow: 'SELECT organization_id, name, updated_at FROM knowledge_bases WHERE id = ?',
  kbCounts: 'SELECT count(*) AS documents, coalesce(sum(chunk_count), 0) AS chunks FROM documents WHERE knowledge_base_id = ?',
  kbAssistants: 'SELECT assistant_id FROM assistant_knowledge_bases WHERE knowledge_base_id = ?',
} as const;

/** One organization's events, ready for the outbox. */
interface Batch {
  organizationId: string;
  drafts: EventDraft[];
}

function chatTurnEvents(t: ChatTurn): Batch {
  const c = t.conversation;
  const only = [c.assistantId];
  const drafts: EventDraft[] = [];
  if (t.isNewConversation) {
    drafts.push({ type: 'conversation.started', assistantIds: only, data: conversationData(c) });
    drafts.push({ type: 'conversation.created', assistantIds: only, data: conversationData(c) });
  }
  drafts.push(
    // Exactly the seed's shape: {integrationId, sessionId, message, metadata}.
    {
      type: 'message.received',
      assistantIds: only,
      data: { integrationId: c.assistantId, sessionId: c.sessionId, message: t.userMessage.content, metadata: t.metadata },
    },
    messageCreated(c, t.userMessage),
    {
      type: 'message.sent',
      assistantIds: only,
      data: {
        integrationId: c.assistantId,
        sessionId: c.sessionId,
        message: t.assistantMessage.content,
        metadata: c.metadata,
        confidence: t.confidence,
        sources: t.sources,
        messageId: t.assistantMessage.id,
        role: 'assistant',
      },
    },
    messageCreated(c, t.assistantMessage),
  );
  return { organizationId: c.organizationId, drafts };
}

function humanAgentEvents(c: Conversation, message: Message): Batch {
  return {
    organizationId: c.organizationId,
    drafts: [
      {
        type: 'message.sent',
        assistantIds: [c.assistantId],
        data: {
          integrationId: c.assistantId,
          sessionId: c.sessionId,
          message: message.content,
          metadata: c.metadata,
          confidence: null,
          sources: [],
          messageId: message.id,
          role: 'human_agent',
        },
      },
      messageCreated(c, message),
    ],
  };
}

function conversationEndedEvents(c: Conversation, reason: 'api' | 'idle', endedAt: string, messageCount: number): Batch {
  return {
    organizationId: c.organizationId,
    drafts: [
      {
        type: 'conversation.ended',
        assistantIds: [c.assistantId],
        data: { ...conversationData(c), reason, lastMessageAt: c.lastMessageAt, endedAt, messageCount },
      },
    ],
  };
}

function knowledgeBaseEvents(change: KnowledgeBaseChange, kb: KbRow, counts: KbCounts, assistantIds: string[]): Batch {
  return {
    organizationId: kb.organization_id,
    drafts: [
      {
        type: 'knowledge_base.updated',
        assistantIds,
        data: {
          knowledgeBaseId: change.knowledgeBaseId,
          name: kb.name,
          change: change.change,
          document: 'document' in change ? change.document : null,
          ...('replacedDocumentIds' in change && change.replacedDocumentIds?.length
            ? { replacedDocumentIds: change.replacedDocumentIds }
            : {}),
          documentCount: counts.documents,
          chunkCount: counts.chunks,
          updatedAt: kb.updated_at,
        },
      },
    ],
  };
}

/** Null when no deployment field changed (then there is no event). */
function deploymentEvents(before: Assistant, after: Assistant): Batch | null {
  const changed = DEPLOYMENT_FIELDS.filter((f) => canonical(before[f]) !== canonical(after[f]));
  if (!changed.length) return null;
  return {
    organizationId: after.organizationId,
    drafts: [
      {
        type: 'app.deployment.updated',
        assistantIds: [after.id],
        data: {
          appId: after.id,
          name: after.name,
          type: after.type,
          changed,
          widget: after.widget,
          discord: after.discord,
          slack: after.slack,
          teams: after.teams,
          // Provider and model name only: whatever else a provider's settings hold stays here.
          model: { provider: after.model.provider, name: after.model.name ?? null },
          updatedAt: after.updatedAt,
        },
      },
    ],
  };
}

const testDraft = (endpointId: string): EventDraft => ({
  type: 'webhook.test',
  assistantIds: null,
  data: { webhookId: endpointId, message: 'A test event from Parley: your endpoint receives and verifies webhooks.' },
});

/** The change's base as it is inside the transaction (before the row goes, for a deletion). */
async function readKnowledgeBase(q: Queryable, id: string): Promise<{ kb: KbRow; counts: KbCounts; assistantIds: string[] } | null> {
  const kb = await q.get<KbRow>(SQL.kbRow, [id]);
  if (!kb) return null;
  const counts = (await q.get<KbCounts>(SQL.kbCounts, [id])) ?? { documents: 0, chunks: 0 };
  const assistantIds = (await q.all<{ assistant_id: string }>(SQL.kbAssistants, [id])).map((r) => r.assistant_id);
  return { kb, counts, assistantIds };
}

/** Webhook events written with the transaction of the change that causes them (see createWebhookEvents). */
export interface WebhookEvents {
  /** The queue the events go to, and the delivery worker reads. */
  readonly outbox: Outbox;
  /**
   * Starts reading who listens to the organization, for `chatTurn`. The chat service starts it
   * with the turn's first statements: on PostgreSQL it travels in their round trip instead of
   * one of its own. A read that fails is reported by `chatTurn`, not as an unhandled rejection.
   */
  chatTurnListeners(tx: Tx, organizationId: string): Promise<readonly Subscriber[]>;
  /** A chat request's user message and answer (and the conversation, when it is new). */
  chatTurn(tx: Tx, t: ChatTurn, listeners?: Promise<readonly Subscriber[]>): Promise<void>;
  /** A reply written by a person (`POST /conversations/:sessionId/messages`). */
  humanAgentMessage(tx: Tx, c: Conversation, message: Message): Promise<void>;
  /** `reason`: `api` for `POST /conversations/:id/end`, `idle` after 30 minutes without a message. */
  conversationEnded(tx: Tx, c: Conversation, reason: 'api' | 'idle', endedAt: string): Promise<void>;
  /** Call before the base's row is deleted (its assistants are found through their links). */
  knowledgeBaseUpdated(tx: Tx, change: KnowledgeBaseChange): Promise<void>;
  /** Fires only when the widget, a bot's settings or the model changed. */
  deploymentUpdated(tx: Tx, before: Assistant, after: Assistant): Promise<void>;
  /** `POST /webhooks/:id/test`: one event for one endpoint. Resolves with the event id (`webhook-id`). */
  test(tx: Tx, endpoint: { id: string; organizationId: string }): Promise<string | null>;
}

/**
 * The emitters. Each writes its events with the transaction of its cause: `await
 * events.chatTurn(tx, turn)` inside `storage.tx(async (tx) => …)`.
 */
export function createWebhookEvents(storage: Storage, clock: Clock): WebhookEvents {
  const outbox = createOutbox(storage, clock);
  const write = async (tx: Tx, b: Batch | null): Promise<void> => {
    if (b) await outbox.enqueue(tx, b.organizationId, b.drafts);
  };

  return {
    outbox,

    chatTurnListeners(tx: Tx, organizationId: string): Promise<readonly Subscriber[]> {
      const read = outbox.subscribers(tx, organizationId);
      read.catch(() => undefined);
      return read;
    },

    async chatTurn(tx: Tx, t: ChatTurn, listeners?: Promise<readonly Subscriber[]>): Promise<void> {
      const b = chatTurnEvents(t);
      if (!listeners) return write(tx, b);
      await outbox.enqueueTo(tx, b.organizationId, b.drafts, await listeners);
    },

    humanAgentMessage: (tx: Tx, c: Conversation, message: Message): Promise<void> => write(tx, humanAgentEvents(c, message)),

    async conversationEnded(tx: Tx, c: Conversation, reason: 'api' | 'idle', endedAt: string): Promise<void> {
      const n = (await tx.get<{ n: number }>(SQL.messageCount, [c.id]))?.n ?? 0;
      await write(tx, conversationEndedEvents(c, reason, endedAt, n));
    },

    async knowledgeBaseUpdated(tx: Tx, change: KnowledgeBaseChange): Promise<void> {
      const found = await readKnowledgeBase(tx, change.knowledgeBaseId);
      if (found) await write(tx, knowledgeBaseEvents(change, found.kb, found.counts, found.assistantIds));
    },

    deploymentUpdated: (tx: Tx, before: Assistant, after: Assistant): Promise<void> => write(tx, deploymentEvents(before, after)),

    async test(tx: Tx, endpoint: { id: string; organizationId: string }): Promise<string | null> {
      const [id] = await outbox.enqueue(tx, endpoint.organizationId, [testDraft(endpoint.id)], endpoint.id);
      return id ?? null;
    },
  };
}
