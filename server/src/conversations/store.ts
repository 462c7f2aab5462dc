import { recordRatedDown } from '../chat/knowledge-gaps.js';
import type { Db } from '../db/open.js';
import { newId } from '../lib/ids.js';
import { parseJson } from '../lib/json.js';

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
}

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
  const insertMsg = db.prepare(`INSERT INTO messages (id, seq, conversation_id, role, content, metadata, confidence, answered, response_ms, created_at)
    VALUES (?, (SELECT coalesce(max(seq), 0) + 1 FROM messages), ?, ?, ?, ?, ?, ?, ?, ?)`);
  const touch = db.prepare("UPDATE conversations SET last_message_at = ?, status = 'active', ended_at = NULL WHERE id = ?");
  const lastMessages = db.prepare<[string, number], MsgRow>('SELECT * FROM (SELECT * FROM messages WHERE conversation_id = ? ORDER BY seq DESC LIMIT ?) ORDER BY seq');
  const allMessages = db.prepare<[string], MsgRow>('SELECT * FROM messages WHERE conversation_id = ? ORDER BY seq');

  return {
    findBySession(organizationId: string, sessionId: string): Conversation | null {
      const row = bySession.get(organizationId, sessionId);
      return row ? toConversation(row) : null;
    },
    create(input: { organizationId: string; assistantId: string; sessionId: string; channel: Channel; metadata: Record<string, unknown> }, at: string): Conversation {
      const id = newId('conv');
      const str = (v: unknown) => (typeof v === 'string' ? v.slice(0, 200) : null);
      insertConv.run(id, input.organizationId, input.assistantId, input.sessionId, input.channel, str(input.metadata.userId), str(input.metadata.source), JSON.stringify(input.metadata), at, at);
      return toConversation(bySession.get(input.organizationId, input.sessionId) as ConvRow);
    },
    /** Appends messages and marks the conversation active; callers wrap this in their transaction. */
    append(conversationId: string, messages: NewMessage[], at: string): Message[] {
      const out: Message[] = [];
      for (const m of messages) {
        const id = newId('msg');
        insertMsg.run(id, conversationId, m.role, m.content, m.metadata ? JSON.stringify(m.metadata) : null, m.confidence ?? null,
          m.answered === undefined || m.answered === null ? null : Number(m.answered), m.responseMs ?? null, at);
        out.push({ id, role: m.role, content: m.content, timestamp: at, ...(m.metadata && { metadata: m.metadata }) });
      }
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
        const ok = db.prepare("UPDATE messages SET rating = ?, rating_comment = ? WHERE id = ? AND conversation_id = ? AND role = 'assistant'")
          .run(rating, comment, messageId, conversationId).changes > 0;
        if (ok && rating === 'down') recordRatedDown(db, conversationId, messageId, at);
        return ok;
      })();
    },
    requestHandoff(conversationId: string, at: string, details: Record<string, unknown>): void {
      db.prepare("UPDATE conversations SET handoff_requested_at = ?, metadata = json_set(metadata, '$.handoff', json(?)) WHERE id = ?")
        .run(at, JSON.stringify({ ...details, requestedAt: at }), conversationId);
    },
  };
}

export type ConversationStore = ReturnType<typeof createConversationStore>;
