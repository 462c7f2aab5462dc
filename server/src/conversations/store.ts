import { newId } from '../lib/ids.js';
import { parseJson } from '../lib/json.js';
import { dialectSql } from '../storage/dialect-sql.js';
import type { Queryable, Storage, Tx } from '../storage/port.js';

export type Role = 'user' | 'assistant' | 'human_agent';
/** How a conversation came in; `playground` = the dashboard's playground (metadata.source "playground"). */
export type Channel = 'api' | 'app' | 'widget' | 'playground';

export interface Conversation {
  id: string;
  organizationId: string;
  assistantId: string;
  sessionId: string;
  channel: Channel;
  userId: string | null;
  source: string | null;
  metadata: Record<string, unknown>;
  status: 'active' | 'ended';
  startedAt: string;
  lastMessageAt: string;
  endedAt: string | null;
}

/** The wire shape of a message (seed "AnalyticsChatMessage"). */
export interface Message {
  id: string;
  role: Role;
  content: string;
  timestamp: string;
  metadata?: Record<string, unknown>;
}

/** A message's model usage, as stored on it (answer/usage.ts). Extractive answers and templates count as none. */
export interface ModelUsage {
  provider: string;
  model: string | null;
  promptTokens: number | null;
  completionTokens: number | null;
  providerMs: number | null;
}

export interface NewMessage {
  role: Role;
  content: string;
  metadata: Record<string, unknown> | null;
  confidence?: number | null;
  answered?: boolean | null;
  responseMs?: number | null;
  /** Who wrote an answer and what it cost (answer/usage.ts), stored with it. */
  usage?: ModelUsage | null;
  /** The documents an answer cited (analytics "most cited"), distinct. */
  citedDocumentIds?: readonly string[];
}

export interface NewConversation {
  organizationId: string;
  assistantId: string;
  sessionId: string;
  channel: Channel;
  metadata: Record<string, unknown>;
}

/** A conversation, or its id when the caller has only that (a hook that needs more reads it). */
export type ConversationRef = string | Pick<Conversation, 'id' | 'organizationId' | 'assistantId' | 'channel' | 'source'>;

interface ConvRow {
  id: string;
  organization_id: string;
  assistant_id: string;
  session_id: string;
  channel: Channel;
  user_id: string | null;
  source: string | null;
  metadata: string;
  status: 'active' | 'ended';
  started_at: string;
  last_message_at: string;
  ended_at: string | null;
}
interface MsgRow {
  id: string;
  role: Role;
  content: string;
  metadata: string | null;
  created_at: string;
}

const toConversation = (r: ConvRow): Conversation => ({
  id: r.id,
  organizationId: r.organization_id,
  assistantId: r.assistant_id,
  sessionId: r.session_id,
  channel: r.channel,
  userId: r.user_id,
  source: r.source,
  metadata: parseJson(r.metadata, {}),
  status: r.status,
  startedAt: r.started_at,
  lastMessageAt: r.last_message_at,
  endedAt: r.ended_at,
});
export const toMessage = (r: MsgRow): Message => {
  const metadata = parseJson<Record<string, unknown> | null>(r.metadata, null);
  return { id: r.id, role: r.role, content: r.content, timestamp: r.created_at, ...(metadata && { metadata }) };
};

/** The keys of a message's or conversation's row that the derived rows are filed under (`channel`: its channel group). */
export interface ConversationKeys {
  organizationId: string;
  assistantId: string;
  channel: string;
}

/** An assistant message whose rating is changing, as it was before. */
export interface RatedMessage extends ConversationKeys {
  conversationId: string;
  messageId: string;
  rating: 'up' | 'down' | null;
  createdAt: string;
}

/**
 * What the owners of rows derived from conversations write in the transaction of a conversation
 * write: analytics its rollups (analytics/conversation-rollups.ts), chat a knowledge gap for an
 * answer rated down (chat/conversation-hooks.ts); app.ts hands both over (combineHooks), so the
 * store calls none of its callers. A store made without hooks writes the conversations' own rows only.
 */
export interface ConversationHooks {
  /** A conversation was created alone (`create`; `startWith` reports it with its messages). */
  conversationStarted?(tx: Tx, conversation: Conversation, at: string): Promise<void>;
  /** Sent with the message's INSERT, in the same batch (one round trip on PostgreSQL); null when nothing is. */
  messageWritten?(tx: Tx, messageId: string, message: NewMessage): Promise<unknown> | null;
  /** Messages were written at `at`; `startedAt`: the conversation was created with them. */
  messagesAdded?(tx: Tx, conversation: ConversationRef, messages: readonly NewMessage[], at: string, startedAt?: string): Promise<void>;
  /** An assistant message's rating was set (`before` is the message as it was). */
  rated?(tx: Tx, before: RatedMessage, rating: 'up' | 'down', at: string): Promise<void>;
  /** A handoff was requested at `at`; `before`: the time of an earlier request. */
  handoffRequested?(tx: Tx, conversation: ConversationKeys, before: string | null, at: string): Promise<void>;
}

/** Several owners' hooks as one: each hook of each, in the order given. */
export function combineHooks(...owners: ConversationHooks[]): ConversationHooks {
  return {
    async conversationStarted(tx, conversation, at) {
      for (const o of owners) await o.conversationStarted?.(tx, conversation, at);
    },
    messageWritten(tx, messageId, message) {
      // Called at once, so their statements go in the message INSERT's batch.
      const sent: Promise<unknown>[] = [];
      for (const o of owners) {
        const write = o.messageWritten?.(tx, messageId, message);
        if (write) sent.push(write);
      }
      return sent.length ? Promise.all(sent) : null;
    },
    async messagesAdded(tx, conversation, messages, at, startedAt) {
      for (const o of owners) await o.messagesAdded?.(tx, conversation, messages, at, startedAt);
    },
    async rated(tx, before, rating, at) {
      for (const o of owners) await o.rated?.(tx, before, rating, at);
    },
    async handoffRequested(tx, conversation, before, at) {
      for (const o of owners) await o.handoffRequested?.(tx, conversation, before, at);
    },
  };
}

/** An idle conversation ends by itself after this long (docs/api-spec.md §7). */
export const IDLE_END_MS = 30 * 60_000;

/** The same SQL on SQLite and PostgreSQL (storage/README.md). */
const SQL = {
  bySession: 'SELECT * FROM conversations WHERE organization_id = ? AND session_id = ?',
  insertConv: `INSERT INTO conversations (id, organization_id, assistant_id, session_id, channel, user_id, source, metadata, started_at, last_message_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  // seq: insertion order across all messages. SQLite computes it (one writer at a time); on
  // PostgreSQL two transactions would read the same max and the second would fail on the UNIQUE
  // constraint, so there it comes from the column's identity sequence (PostgreSQL migration 003).
  touch: "UPDATE conversations SET last_message_at = ?, status = 'active', ended_at = NULL WHERE id = ?",
  lastMessages: 'SELECT * FROM (SELECT * FROM messages WHERE conversation_id = ? ORDER BY seq DESC LIMIT ?) AS recent ORDER BY seq',
  allMessages: 'SELECT * FROM messages WHERE conversation_id = ? ORDER BY seq',
  end: "UPDATE conversations SET status = 'ended', ended_at = ? WHERE id = ? AND status = 'active'",
  idle: "SELECT * FROM conversations WHERE status = 'active' AND last_message_at <= ?",
  ratedMessage: `SELECT m.rating, m.created_at AS "createdAt", c.organization_id AS "organizationId", c.assistant_id AS "assistantId", c.channel_group AS channel
    FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE m.id = ? AND m.conversation_id = ? AND m.role = 'assistant'`,
  rate: 'UPDATE messages SET rating = ?, rating_comment = ? WHERE id = ?',
  handoffBefore: `SELECT handoff_requested_at AS "requestedAt", metadata, organization_id AS "organizationId", assistant_id AS "assistantId", channel_group AS channel
    FROM conversations WHERE id = ?`,
  handoff: 'UPDATE conversations SET handoff_requested_at = ?, metadata = ? WHERE id = ?',
} as const;

/** Conversations and their messages (see createConversationStore). */
export interface ConversationStore {
  /** The organization's conversation of a session, or null; `q`: a transaction reading its own writes (the storage by default). */
  findBySession(organizationId: string, sessionId: string, q?: Queryable): Promise<Conversation | null>;
  /** A new conversation, counted in the hour it started. */
  create(tx: Tx, input: NewConversation, at: string): Promise<Conversation>;
  /** Appends messages and marks the conversation active, in the caller's transaction. */
  append(tx: Tx, conversation: ConversationRef, messages: NewMessage[], at: string): Promise<Message[]>;
  /**
   * A new conversation started at `startedAt` with its first messages written at `at` (a chat
   * turn): the same rows as create + append, in fewer statements (no touch, one counters row).
   */
  startWith(
    tx: Tx,
    input: NewConversation,
    startedAt: string,
    messages: NewMessage[],
    at: string,
  ): Promise<{ conversation: Conversation; messages: Message[] }>;
  /** The last `limit` messages, oldest first (a model's history). */
  lastMessages(conversationId: string, limit: number, q?: Queryable): Promise<Message[]>;
  /** Every message, oldest first. */
  messages(conversationId: string, q?: Queryable): Promise<Message[]>;
  /** Ends an active conversation in the caller's transaction; false when it had ended already. */
  end(tx: Tx, conversationId: string, at: string): Promise<boolean>;
  /**
   * Ends every conversation idle for 30 minutes, in one transaction with `onEnded` (its
   * webhook events); returns the ones it ended.
   */
  endIdle(nowMs: number, onEnded?: (tx: Tx, c: Conversation) => Promise<void>): Promise<Conversation[]>;
  /** Rates an assistant message; the hooks follow in the same transaction (an answer rated down: a knowledge gap). */
  rate(conversationId: string, messageId: string, rating: 'up' | 'down', comment: string | null, at: string): Promise<boolean>;
  /** The user asked for a human: when, and what they left (metadata.handoff). A later request moves the time. */
  requestHandoff(conversationId: string, at: string, details: Record<string, unknown>): Promise<void>;
}

/**
 * Conversations and their messages on the storage port. Writes that belong to a caller's
 * transaction (a chat turn: conversation, messages, gap, webhook events) take its `Tx`; reads
 * take any `Queryable` (the storage, or the `Tx` when the read must see the transaction's rows).
 */
export function createConversationStore(storage: Storage, hooks: ConversationHooks = {}): ConversationStore {
  // seq numbers the messages in insertion order (dialect-sql.ts: a sequence, or MAX + 1 on SQLite).
  const insertMsg = `INSERT INTO messages (id, seq, conversation_id, role, content, metadata, confidence, answered, response_ms, created_at,
      provider, model, prompt_tokens, completion_tokens, provider_ms)
    VALUES (?, ${dialectSql(storage).nextSerial('messages', 'seq')}, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

  /**
   * Sends the conversation's INSERT and returns the row it writes (not read back) with the
   * statement's promise: the statements sent before that is awaited leave with it (one round
   * trip on PostgreSQL, storage/README.md).
   */
  function insertConversation(
    tx: Tx,
    input: NewConversation,
    startedAt: string,
    lastMessageAt: string,
  ): { conversation: Conversation; written: Promise<unknown> } {
    const id = newId('conv');
    const str = (v: unknown) => (typeof v === 'string' ? v.slice(0, 200) : null);
    const metadata = JSON.stringify(input.metadata);
    const written = tx.run(SQL.insertConv, [
      id,
      input.organizationId,
      input.assistantId,
      input.sessionId,
      input.channel,
      str(input.metadata.userId),
      str(input.metadata.source),
      metadata,
      startedAt,
      lastMessageAt,
    ]);
    const conversation = toConversation({
      id,
      organization_id: input.organizationId,
      assistant_id: input.assistantId,
      session_id: input.sessionId,
      channel: input.channel,
      user_id: str(input.metadata.userId),
      source: str(input.metadata.source),
      metadata,
      status: 'active',
      started_at: startedAt,
      last_message_at: lastMessageAt,
      ended_at: null,
    });
    return { conversation, written };
  }

  /**
   * The message rows and what the hooks add (citations, rollups). `startedAt`: the conversation
   * is new (the rollups count it too); `sentBefore`: statements already sent, awaited with these.
   */
  async function insertMessages(
    tx: Tx,
    conversation: ConversationRef,
    messages: NewMessage[],
    at: string,
    opts: { startedAt?: string; sentBefore?: readonly Promise<unknown>[] } = {},
  ): Promise<Message[]> {
    const conversationId = typeof conversation === 'string' ? conversation : conversation.id;
    const out: Message[] = [];
    // Sent together, in order (a citation after its message): one round trip on PostgreSQL
    // instead of one per statement (storage/README.md). The first failure fails them all.
    const writes: Promise<unknown>[] = [];
    for (const m of messages) {
      const id = newId('msg');
      const u = m.usage ?? null;
      writes.push(
        tx.run(insertMsg, [
          id,
          conversationId,
          m.role,
          m.content,
          m.metadata ? JSON.stringify(m.metadata) : null,
          m.confidence ?? null,
          m.answered === undefined || m.answered === null ? null : Number(m.answered),
          m.responseMs ?? null,
          at,
          u?.provider ?? null,
          u?.model ?? null,
          u?.promptTokens ?? null,
          u?.completionTokens ?? null,
          u?.providerMs ?? null,
        ]),
      );
      const derived = hooks.messageWritten?.(tx, id, m);
      if (derived) writes.push(derived);
      out.push({ id, role: m.role, content: m.content, timestamp: at, ...(m.metadata && { metadata: m.metadata }) });
    }
    writes.push(...(opts.sentBefore ?? []));
    await Promise.all(writes);
    await hooks.messagesAdded?.(tx, conversation, messages, at, opts.startedAt);
    return out;
  }

  return {
    async findBySession(organizationId: string, sessionId: string, q: Queryable = storage): Promise<Conversation | null> {
      const row = await q.get<ConvRow>(SQL.bySession, [organizationId, sessionId]);
      return row ? toConversation(row) : null;
    },
    async create(tx: Tx, input: NewConversation, at: string): Promise<Conversation> {
      const { conversation, written } = insertConversation(tx, input, at, at);
      await written;
      await hooks.conversationStarted?.(tx, conversation, at);
      return conversation;
    },
    async append(tx: Tx, conversation: ConversationRef, messages: NewMessage[], at: string): Promise<Message[]> {
      const id = typeof conversation === 'string' ? conversation : conversation.id;
      return insertMessages(tx, conversation, messages, at, { sentBefore: [tx.run(SQL.touch, [at, id])] });
    },
    async startWith(
      tx: Tx,
      input: NewConversation,
      startedAt: string,
      messages: NewMessage[],
      at: string,
    ): Promise<{ conversation: Conversation; messages: Message[] }> {
      const { conversation, written } = insertConversation(tx, input, startedAt, at);
      return { conversation, messages: await insertMessages(tx, conversation, messages, at, { startedAt, sentBefore: [written] }) };
    },
    async lastMessages(conversationId: string, limit: number, q: Queryable = storage): Promise<Message[]> {
      return limit > 0 ? (await q.all<MsgRow>(SQL.lastMessages, [conversationId, limit])).map(toMessage) : [];
    },
    async messages(conversationId: string, q: Queryable = storage): Promise<Message[]> {
      return (await q.all<MsgRow>(SQL.allMessages, [conversationId])).map(toMessage);
    },
    async end(tx: Tx, conversationId: string, at: string): Promise<boolean> {
      return (await tx.run(SQL.end, [at, conversationId])).changes > 0;
    },
    async endIdle(nowMs: number, onEnded?: (tx: Tx, c: Conversation) => Promise<void>): Promise<Conversation[]> {
      const cutoff = new Date(nowMs - IDLE_END_MS).toISOString();
      const at = new Date(nowMs).toISOString();
      return storage.tx(async (tx) => {
        const ended: Conversation[] = [];
        for (const r of await tx.all<ConvRow>(SQL.idle, [cutoff])) {
          if (!(await tx.run(SQL.end, [at, r.id])).changes) continue;
          const c = { ...toConversation(r), status: 'ended' as const, endedAt: at };
          if (onEnded) await onEnded(tx, c);
          ended.push(c);
        }
        return ended;
      });
    },
    async rate(conversationId: string, messageId: string, rating: 'up' | 'down', comment: string | null, at: string): Promise<boolean> {
      return storage.tx(async (tx) => {
        const before = await tx.get<Omit<RatedMessage, 'conversationId' | 'messageId'>>(SQL.ratedMessage, [messageId, conversationId]);
        if (!before) return false;
        await tx.run(SQL.rate, [rating, comment, messageId]);
        await hooks.rated?.(tx, { ...before, conversationId, messageId }, rating, at);
        return true;
      });
    },
    async requestHandoff(conversationId: string, at: string, details: Record<string, unknown>): Promise<void> {
      await storage.tx(async (tx) => {
        const before = await tx.get<ConversationKeys & { requestedAt: string | null; metadata: string }>(SQL.handoffBefore, [
          conversationId,
        ]);
        if (!before) return;
        const metadata = { ...parseJson<Record<string, unknown>>(before.metadata, {}), handoff: { ...details, requestedAt: at } };
        await tx.run(SQL.handoff, [at, JSON.stringify(metadata), conversationId]);
        await hooks.handoffRequested?.(tx, before, before.requestedAt, at);
      });
    },
  };
}
