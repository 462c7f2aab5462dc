import { recordRatedDown } from '../chat/knowledge-gaps.js';
import type { Db } from '../db/open.js';
import { newId } from '../lib/ids.js';
import { parseJson } from '../lib/json.js';
import { cellOf, rollups, type ModelUsage, type RollupCell } from '../analytics/rollup-writes.js';

export type Role = 'user' | 'assistant' | 'human_agent';
/** How a conversation came in; `playground` = the dashboard's playground (metadata.source "playground"). */
export type Channel = 'api' | 'app' | 'widget' | 'playground';

export interface Conversation {
  id: string; organizationId: string; assistantId: string; sessionId: string; channel: Channel;
  userId: string | null; source: string | null; metadata: Record<string, unknown>;
  status: 'active' | 'ended'; startedAt: string; lastMessageAt: string; endedAt: string | null;
}

/** The wire shape of a message (seed "AnalyticsChatMessage"). */
export interface Message { id: string; role: Role; content: string; timestamp: string; metadata?: Record<string, unknown> }

export interface NewMessage {
  role: Role; content: string; metadata: Record<string, unknown> | null; confidence?: number | null; answered?: boolean | null; responseMs?: number | null;
  /** Who wrote an answer and what it cost (answer/usage.ts), stored with it. */
  usage?: ModelUsage | null;
  /** The documents an answer cited (analytics "most cited"), distinct. */
  citedDocumentIds?: readonly string[];
}

/** A conversation, or its id when the caller has only that (the rollup cell is then read). */
export type ConversationRef = string | Pick<Conversation, 'id' | 'organizationId' | 'assistantId' | 'channel' | 'source'>;

interface ConvRow {
  id: string; organization_id: string; assistant_id: string; session_id: string; channel: Channel; user_id: string | null; source: string | null;
  metadata: string; status: 'active' | 'ended'; started_at: string; last_message_at: string; ended_at: string | null;
}
interface MsgRow { id: string; role: Role; content: string; metadata: string | null; created_at: string }

const toConversation = (r: ConvRow): Conversation => ({
  id: r.id, organizationId: r.organization_id, assistantId: r.assistant_id, sessionId: r.session_id, channel: r.channel,
  userId: r.user_id, source: r.source, metadata: parseJson(r.metadata, {}), status: r.status,
  startedAt: r.started_at, lastMessageAt: r.last_message_at, endedAt: r.ended_at,
});
export const toMessage = (r: MsgRow): Message => {
  const metadata = parseJson<Record<string, unknown> | null>(r.metadata, null);
  return { id: r.id, role: r.role, content: r.content, timestamp: r.created_at, ...(metadata && { metadata }) };
};

/** An idle conversation ends by itself after this long (API.md §7). */
export const IDLE_END_MS = 30 * 60_000;

export function createConversationStore(db: Db) {
  const bySession = db.prepare<[string, string], ConvRow>('SELECT * FROM conversations WHERE organization_id = ? AND session_id = ?');
  const insertConv = db.prepare(`INSERT INTO conversations (id, organization_id, assistant_id, session_id, channel, user_id, source, metadata, started_at, last_message_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const insertMsg = db.prepare(`INSERT INTO messages (id, seq, conversation_id, role, content, metadata, confidence, answered, response_ms, created_at,
      provider, model, prompt_tokens, completion_tokens, provider_ms)
    VALUES (?, (SELECT coalesce(max(seq), 0) + 1 FROM messages), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const touch = db.prepare("UPDATE conversations SET last_message_at = ?, status = 'active', ended_at = NULL WHERE id = ?");
  const lastMessages = db.prepare<[string, number], MsgRow>('SELECT * FROM (SELECT * FROM messages WHERE conversation_id = ? ORDER BY seq DESC LIMIT ?) ORDER BY seq');
  const allMessages = db.prepare<[string], MsgRow>('SELECT * FROM messages WHERE conversation_id = ? ORDER BY seq');
  const cellById = db.prepare<[string], RollupCell>('SELECT organization_id AS organizationId, assistant_id AS assistantId, channel_group AS channel FROM conversations WHERE id = ?');
  const cellOfRef = (c: ConversationRef): { id: string; cell: RollupCell | undefined } =>
    (typeof c === 'string' ? { id: c, cell: cellById.get(c) } : { id: c.id, cell: cellOf(c) });

  return {
    findBySession(organizationId: string, sessionId: string): Conversation | null {
      const row = bySession.get(organizationId, sessionId);
      return row ? toConversation(row) : null;
    },
    create(input: { organizationId: string; assistantId: string; sessionId: string; channel: Channel; metadata: Record<string, unknown> }, at: string): Conversation {
      const id = newId('conv');
      const str = (v: unknown) => (typeof v === 'string' ? v.slice(0, 200) : null);
      const metadata = JSON.stringify(input.metadata);
      insertConv.run(id, input.organizationId, input.assistantId, input.sessionId, input.channel, str(input.metadata.userId), str(input.metadata.source), metadata, at, at);
      // The row just written, without reading it back (one statement less per new conversation).
      const conversation = toConversation({
        id, organization_id: input.organizationId, assistant_id: input.assistantId, session_id: input.sessionId, channel: input.channel,
        user_id: str(input.metadata.userId), source: str(input.metadata.source), metadata, status: 'active', started_at: at, last_message_at: at, ended_at: null,
      });
      rollups.conversationStarted(db, cellOf(conversation), at);
      return conversation;
    },
    /** Appends messages and marks the conversation active; callers wrap this in their transaction. */
    append(conversation: ConversationRef, messages: NewMessage[], at: string): Message[] {
      const { id: conversationId, cell } = cellOfRef(conversation);
      const out: Message[] = [];
      for (const m of messages) {
        const id = newId('msg');
        const u = m.usage ?? null;
        insertMsg.run(id, conversationId, m.role, m.content, m.metadata ? JSON.stringify(m.metadata) : null, m.confidence ?? null,
          m.answered === undefined || m.answered === null ? null : Number(m.answered), m.responseMs ?? null, at,
          u?.provider ?? null, u?.model ?? null, u?.promptTokens ?? null, u?.completionTokens ?? null, u?.providerMs ?? null);
        if (m.citedDocumentIds?.length) rollups.citations(db, id, m.citedDocumentIds);
        out.push({ id, role: m.role, content: m.content, timestamp: at, ...(m.metadata && { metadata: m.metadata }) });
      }
      // No cell: the conversation does not exist, and the messages' foreign key has failed already.
      if (cell) rollups.messagesAdded(db, cell, at, messages.map((m) => ({ answered: m.answered ?? null, responseMs: m.responseMs ?? null, rating: null, usage: m.usage ?? null })));
      touch.run(at, conversationId);
      return out;
    },
    lastMessages(conversationId: string, limit: number): Message[] {
      return limit > 0 ? lastMessages.all(conversationId, limit).map(toMessage) : [];
    },
    messages(conversationId: string): Message[] {
      return allMessages.all(conversationId).map(toMessage);
    },
    end(conversationId: string, at: string): boolean {
      return db.prepare("UPDATE conversations SET status = 'ended', ended_at = ? WHERE id = ? AND status = 'active'").run(at, conversationId).changes > 0;
    },
    /** Ends every conversation idle for 30 minutes; returns the ones it ended. */
    endIdle(nowMs: number): Conversation[] {
      const cutoff = new Date(nowMs - IDLE_END_MS).toISOString();
      const at = new Date(nowMs).toISOString();
      const rows = db.prepare<[string], ConvRow>("SELECT * FROM conversations WHERE status = 'active' AND last_message_at <= ?").all(cutoff);
      const end = db.prepare("UPDATE conversations SET status = 'ended', ended_at = ? WHERE id = ? AND status = 'active'");
      db.transaction(() => { for (const r of rows) end.run(at, r.id); })();
      return rows.map((r) => ({ ...toConversation(r), status: 'ended' as const, endedAt: at }));
    },
    /** An answer rated down becomes a knowledge gap (cause rated_down) in the same transaction. */
    rate(conversationId: string, messageId: string, rating: 'up' | 'down', comment: string | null, at: string): boolean {
      return db.transaction(() => {
        const before = db.prepare(`SELECT m.rating, m.created_at AS createdAt, c.organization_id AS organizationId, c.assistant_id AS assistantId, c.channel_group AS channel
          FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE m.id = ? AND m.conversation_id = ? AND m.role = 'assistant'`)
          .get(messageId, conversationId) as (RollupCell & { rating: 'up' | 'down' | null; createdAt: string }) | undefined;
        if (!before) return false;
        db.prepare('UPDATE messages SET rating = ?, rating_comment = ? WHERE id = ?').run(rating, comment, messageId);
        rollups.ratingChanged(db, before, before.createdAt, before.rating, rating);
        if (rating === 'down') recordRatedDown(db, conversationId, messageId, at);
        return true;
      })();
    },
    requestHandoff(conversationId: string, at: string, details: Record<string, unknown>): void {
      db.transaction(() => {
        const before = db.prepare(`SELECT handoff_requested_at AS requestedAt, organization_id AS organizationId, assistant_id AS assistantId, channel_group AS channel
          FROM conversations WHERE id = ?`).get(conversationId) as (RollupCell & { requestedAt: string | null }) | undefined;
        if (!before) return;
        db.prepare("UPDATE conversations SET handoff_requested_at = ?, metadata = json_set(metadata, '$.handoff', json(?)) WHERE id = ?")
          .run(at, JSON.stringify({ ...details, requestedAt: at }), conversationId);
        rollups.handoffMoved(db, before, before.requestedAt, at);
      })();
    },
  };
}

export type ConversationStore = ReturnType<typeof createConversationStore>;
