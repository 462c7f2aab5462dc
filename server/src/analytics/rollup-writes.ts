import type { ModelUsage } from '../conversations/store.js';
import type { SqlValue, Tally, Tx } from '../storage/port.js';
import { channelOf } from './channel.js';

/**
 * Keeps the analytics rollups (migrations 018, 022, 024) in step with the conversations and
 * messages, called by the code that writes those (the conversation store through
 * conversation-rollups.ts, the usage recorder), inside its transaction: a rollup is never
 * ahead of or behind the rows it counts. Plain INSERT … ON CONFLICT statements rather than
 * triggers, so one implementation serves SQLite and PostgreSQL, and rather than JSON: counters
 * and histogram buckets are integer rows added to.
 *
 * Every writer of conversations.started_at / handoff_requested_at and of messages (rows,
 * rating, usage) goes through here, with the `Tx` of its write. A bulk load that bypasses it
 * calls rebuildRollups (rollup-rebuild.ts).
 *
 * The additions of one transaction are summed per row and written last, just before its commit
 * (a `Tx.tally`), all at once and in one order. Every chat adds to the same hour's rows: on
 * PostgreSQL the first upsert locks its row until the commit, so writing them last keeps the
 * other chats' wait on that lock short (most active chats were waiting on it), and the one
 * order keeps two transactions from taking the same rows in opposite orders (a deadlock). On
 * SQLite the chat turns of one group commit (TxOptions.sharesTallies) sum theirs together: the
 * hour's counters row is written once per commit instead of once per turn.
 */

/** The rollup key of a conversation: its organization, assistant and analytics channel. */
export interface RollupCell {
  organizationId: string;
  assistantId: string;
  channel: string;
}

export const cellOf = (c: { organizationId: string; assistantId: string; channel: string; source: string | null }): RollupCell => ({
  organizationId: c.organizationId,
  assistantId: c.assistantId,
  channel: channelOf(c.channel, c.source),
});

/** Histogram bucket of a time in ms: 0 is [0, 1), k ≥ 1 is [1.1^(k-1), 1.1^k) (as migration 024's backfill computes it). */
export function latencyBucket(ms: number): number {
  return ms < 1 ? 0 : 1 + Math.floor(Math.log(ms) / Math.log(1.1));
}

/** What a message contributes to the rollups. */
export interface MessageFigures {
  answered: boolean | null;
  responseMs: number | null;
  rating: 'up' | 'down' | null;
  usage: ModelUsage | null;
}

export type { ModelUsage };

interface Counters {
  conversations?: number;
  messages?: number;
  answered?: number;
  unanswered?: number;
  up?: number;
  down?: number;
  handoffs?: number;
}

const hourOf = (iso: string) => iso.slice(0, 13);
const dayOf = (iso: string) => iso.slice(0, 10);
const countsAsModel = (u: ModelUsage | null): u is ModelUsage => u !== null && u.provider !== 'extractive';

const usageUpsert = (table: string, key: string) => `INSERT INTO ${table} (organization_id, ${key}, assistant_id, channel, provider, model,
    answers, prompt_tokens, completion_tokens, provider_ms_count, provider_ms_sum) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (organization_id, ${key}, assistant_id, channel, provider, model) DO UPDATE SET answers = ${table}.answers + excluded.answers,
    prompt_tokens = ${table}.prompt_tokens + excluded.prompt_tokens, completion_tokens = ${table}.completion_tokens + excluded.completion_tokens,
    provider_ms_count = ${table}.provider_ms_count + excluded.provider_ms_count, provider_ms_sum = ${table}.provider_ms_sum + excluded.provider_ms_sum`;
const latencyUpsert = (
  table: string,
  key: string,
) => `INSERT INTO ${table} (organization_id, metric, ${key}, assistant_id, channel, bucket, count)
  VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (organization_id, metric, ${key}, assistant_id, channel, bucket) DO UPDATE SET count = ${table}.count + excluded.count`;

/** Upserts that add to what is there (the same text on SQLite and PostgreSQL). */
const SQL = {
  hourly: `INSERT INTO analytics_hourly (organization_id, hour, assistant_id, channel, conversations, messages, answered, unanswered, up, down, handoffs)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (organization_id, hour, assistant_id, channel) DO UPDATE SET conversations = analytics_hourly.conversations + excluded.conversations,
      messages = analytics_hourly.messages + excluded.messages, answered = analytics_hourly.answered + excluded.answered,
      unanswered = analytics_hourly.unanswered + excluded.unanswered, up = analytics_hourly.up + excluded.up, down = analytics_hourly.down + excluded.down,
      handoffs = analytics_hourly.handoffs + excluded.handoffs`,
  latencyHourly: latencyUpsert('analytics_latency_hourly', 'hour'),
  latencyDaily: latencyUpsert('analytics_latency_daily', 'day'),
  usageHourly: usageUpsert('analytics_hourly_usage', 'hour'),
  usageDaily: usageUpsert('analytics_daily_usage', 'day'),
} as const;

/** One statement for all of an answer's cited documents (the text is cached per row count). */
const citationInsert = (rows: number) =>
  `INSERT INTO message_citations (message_id, document_id) VALUES ${Array.from({ length: rows }, () => '(?, ?)').join(', ')} ON CONFLICT DO NOTHING`;

interface Row {
  sql: string;
  key: SqlValue[];
  add: number[];
}

/**
 * One transaction's additions (on SQLite, a group commit's), summed per row until its commit. A
 * key is the statement and the row's key values; the value, the figures to add (every column
 * after the key).
 */
class RollupBatch {
  private readonly rows = new Map<string, Row>();

  add(table: keyof typeof SQL, key: SqlValue[], add: number[]): void {
    this.addRow(JSON.stringify([table, ...key]), { sql: SQL[table], key, add: [...add] });
  }

  /** Adds another batch's rows (which it hands over: they are not copied). */
  merge(from: RollupBatch): void {
    for (const [id, row] of from.rows) this.addRow(id, row);
  }

  private addRow(id: string, row: Row): void {
    const had = this.rows.get(id);
    if (!had) this.rows.set(id, row);
    else for (let i = 0; i < row.add.length; i++) had.add[i] = (had.add[i] ?? 0) + (row.add[i] ?? 0);
  }

  async write(tx: Tx): Promise<void> {
    // Rows whose additions cancel out (a usage rewritten to the same figures) change nothing.
    const rows = [...this.rows.entries()].filter(([, r]) => r.add.some((n) => n !== 0)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    this.rows.clear();
    // Sent together: PostgreSQL gets them in one write and answers them in order (storage/README.md).
    await Promise.all(rows.map(([, r]) => tx.run(r.sql, [...r.key, ...r.add])));
  }
}

const ROLLUPS: Tally<RollupBatch> = {
  create: () => new RollupBatch(),
  merge: (into, from) => into.merge(from),
  write: (tx, batch) => batch.write(tx),
};

/** The transaction's batch, written before its commit. */
const batchOf = (tx: Tx): RollupBatch => tx.tally(ROLLUPS);

/**
 * Adds (sign 1) or takes out (sign -1) a message's response time and model usage, in the hour
 * and day it was written. Its counters (messages, answered, ratings) go through addCounters.
 */
function addTimesAndUsage(
  tx: Tx,
  cell: RollupCell,
  createdAt: string,
  responseMs: number | null,
  u: ModelUsage | null,
  sign: 1 | -1,
): void {
  const { organizationId: org, assistantId: asst, channel: ch } = cell;
  const hour = hourOf(createdAt);
  const day = dayOf(createdAt);
  const batch = batchOf(tx);
  if (responseMs !== null) {
    const b = latencyBucket(responseMs);
    batch.add('latencyHourly', [org, 'response', hour, asst, ch, b], [sign]);
    batch.add('latencyDaily', [org, 'response', day, asst, ch, b], [sign]);
  }
  if (!countsAsModel(u)) return;
  const figures = [
    sign,
    sign * (u.promptTokens ?? 0),
    sign * (u.completionTokens ?? 0),
    sign * Number(u.providerMs !== null),
    sign * (u.providerMs ?? 0),
  ];
  batch.add('usageHourly', [org, hour, asst, ch, u.provider, u.model ?? ''], figures);
  batch.add('usageDaily', [org, day, asst, ch, u.provider, u.model ?? ''], figures);
  if (u.providerMs !== null) {
    const b = latencyBucket(u.providerMs);
    batch.add('latencyHourly', [org, 'provider', hour, asst, ch, b], [sign]);
    batch.add('latencyDaily', [org, 'provider', day, asst, ch, b], [sign]);
  }
}

function addCounters(tx: Tx, cell: RollupCell, at: string, c: Counters): void {
  batchOf(tx).add(
    'hourly',
    [cell.organizationId, hourOf(at), cell.assistantId, cell.channel],
    [c.conversations ?? 0, c.messages ?? 0, c.answered ?? 0, c.unanswered ?? 0, c.up ?? 0, c.down ?? 0, c.handoffs ?? 0],
  );
}

export const rollups = {
  /** A conversation was created (counts in the hour it started). */
  async conversationStarted(tx: Tx, cell: RollupCell, startedAt: string): Promise<void> {
    addCounters(tx, cell, startedAt, { conversations: 1 });
  },

  /**
   * Messages were written at `at` (one append: the same hour for all). `conversationStartedAt`:
   * the conversation was created in the same transaction, counted here (one counters row when
   * it started in the same hour, which a chat turn nearly always does).
   */
  async messagesAdded(
    tx: Tx,
    cell: RollupCell,
    at: string,
    messages: readonly MessageFigures[],
    conversationStartedAt?: string,
  ): Promise<void> {
    let conversations = 0;
    if (conversationStartedAt !== undefined) {
      if (hourOf(conversationStartedAt) === hourOf(at)) conversations = 1;
      else addCounters(tx, cell, conversationStartedAt, { conversations: 1 });
    }
    if (!messages.length && !conversations) return;
    let answered = 0;
    let unanswered = 0;
    let up = 0;
    let down = 0;
    for (const m of messages) {
      answered += Number(m.answered === true);
      unanswered += Number(m.answered === false);
      up += Number(m.rating === 'up');
      down += Number(m.rating === 'down');
    }
    // One counters row for the whole append; times and usage per message.
    addCounters(tx, cell, at, { conversations, messages: messages.length, answered, unanswered, up, down });
    for (const m of messages) addTimesAndUsage(tx, cell, at, m.responseMs, m.usage, 1);
  },

  /** The documents an answer cited (distinct ids), for analytics/sources.ts. */
  async citations(tx: Tx, messageId: string, documentIds: readonly string[]): Promise<void> {
    if (!documentIds.length) return;
    await tx.run(
      citationInsert(documentIds.length),
      documentIds.flatMap((id) => [messageId, id]),
    );
  },

  /** A message's rating changed (counts in the hour the message was written). */
  async ratingChanged(
    tx: Tx,
    cell: RollupCell,
    createdAt: string,
    before: 'up' | 'down' | null,
    after: 'up' | 'down' | null,
  ): Promise<void> {
    if (before === after) return;
    addCounters(tx, cell, createdAt, {
      up: Number(after === 'up') - Number(before === 'up'),
      down: Number(after === 'down') - Number(before === 'down'),
    });
  },

  /** handoff_requested_at moved from `before` to `after` (a repeated request moves the count to its hour). */
  async handoffMoved(tx: Tx, cell: RollupCell, before: string | null, after: string): Promise<void> {
    if (before !== null && hourOf(before) === hourOf(after)) return;
    if (before !== null) addCounters(tx, cell, before, { handoffs: -1 });
    addCounters(tx, cell, after, { handoffs: 1 });
  },

  /** A message's usage was rewritten: the old figures out, the new in. */
  async usageChanged(tx: Tx, cell: RollupCell, createdAt: string, before: ModelUsage | null, after: ModelUsage | null): Promise<void> {
    addTimesAndUsage(tx, cell, createdAt, null, before, -1);
    addTimesAndUsage(tx, cell, createdAt, null, after, 1);
  },
};
