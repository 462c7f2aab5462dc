import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Statement } from 'better-sqlite3';
import type { Db } from '../db/open.js';
import { channelOf } from './channel.js';

/**
 * Keeps the analytics rollups (migrations 018, 022, 024) in step with the conversations and
 * messages, called by the code that writes those, inside its transaction: a rollup is never
 * ahead of or behind the rows it counts. Plain INSERT … ON CONFLICT statements rather than
 * triggers, so one implementation serves SQLite and PostgreSQL, and rather than JSON: counters
 * and histogram buckets are integer rows added to.
 *
 * Every writer of conversations.started_at / handoff_requested_at and of messages (rows,
 * rating, usage) goes through here. A bulk load that bypasses it calls rebuildRollups.
 */

/** The rollup key of a conversation: its organization, assistant and analytics channel. */
export interface RollupCell { organizationId: string; assistantId: string; channel: string }

export const cellOf = (c: { organizationId: string; assistantId: string; channel: string; source: string | null }): RollupCell =>
  ({ organizationId: c.organizationId, assistantId: c.assistantId, channel: channelOf(c.channel, c.source) });

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

/** A message's model usage, as stored on it (answer/usage.ts). Extractive answers and templates count as none. */
export interface ModelUsage {
  provider: string; model: string | null; promptTokens: number | null; completionTokens: number | null; providerMs: number | null;
}

interface Counters { conversations?: number; messages?: number; answered?: number; unanswered?: number; up?: number; down?: number; handoffs?: number }

const hourOf = (iso: string) => iso.slice(0, 13);
const dayOf = (iso: string) => iso.slice(0, 10);
const countsAsModel = (u: ModelUsage | null): u is ModelUsage => u !== null && u.provider !== 'extractive';

function statementsFor(db: Db) {
  let s = cache.get(db);
  if (s) return s;
  const usageUpsert = (table: string, key: string) => db.prepare(`INSERT INTO ${table} (organization_id, ${key}, assistant_id, channel, provider, model,
      answers, prompt_tokens, completion_tokens, provider_ms_count, provider_ms_sum) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (organization_id, ${key}, assistant_id, channel, provider, model) DO UPDATE SET answers = ${table}.answers + excluded.answers,
      prompt_tokens = ${table}.prompt_tokens + excluded.prompt_tokens, completion_tokens = ${table}.completion_tokens + excluded.completion_tokens,
      provider_ms_count = ${table}.provider_ms_count + excluded.provider_ms_count, provider_ms_sum = ${table}.provider_ms_sum + excluded.provider_ms_sum`);
  const latencyUpsert = (table: string, key: string) => db.prepare(`INSERT INTO ${table} (organization_id, metric, ${key}, assistant_id, channel, bucket, count)
    VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (organization_id, metric, ${key}, assistant_id, channel, bucket) DO UPDATE SET count = ${table}.count + excluded.count`);
  s = {
    hourly: db.prepare(`INSERT INTO analytics_hourly (organization_id, hour, assistant_id, channel, conversations, messages, answered, unanswered, up, down, handoffs)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (organization_id, hour, assistant_id, channel) DO UPDATE SET conversations = analytics_hourly.conversations + excluded.conversations,
        messages = analytics_hourly.messages + excluded.messages, answered = analytics_hourly.answered + excluded.answered,
        unanswered = analytics_hourly.unanswered + excluded.unanswered, up = analytics_hourly.up + excluded.up, down = analytics_hourly.down + excluded.down,
        handoffs = analytics_hourly.handoffs + excluded.handoffs`),
    latencyHourly: latencyUpsert('analytics_latency_hourly', 'hour'),
    latencyDaily: latencyUpsert('analytics_latency_daily', 'day'),
    usageHourly: usageUpsert('analytics_hourly_usage', 'hour'),
    usageDaily: usageUpsert('analytics_daily_usage', 'day'),
    citation: db.prepare('INSERT INTO message_citations (message_id, document_id) VALUES (?, ?) ON CONFLICT DO NOTHING'),
  };
  cache.set(db, s);
  return s;
}
const cache = new WeakMap<Db, {
  hourly: Statement; latencyHourly: Statement; latencyDaily: Statement; usageHourly: Statement; usageDaily: Statement; citation: Statement;
}>();

/**
 * Adds (sign 1) or takes out (sign -1) a message's response time and model usage, in the hour
 * and day it was written. Its counters (messages, answered, ratings) go through addCounters.
 */
function addTimesAndUsage(db: Db, cell: RollupCell, createdAt: string, responseMs: number | null, u: ModelUsage | null, sign: 1 | -1): void {
  const s = statementsFor(db);
  const { organizationId: org, assistantId: asst, channel: ch } = cell;
  const hour = hourOf(createdAt);
  const day = dayOf(createdAt);
  if (responseMs !== null) {
    const b = latencyBucket(responseMs);
    s.latencyHourly.run(org, 'response', hour, asst, ch, b, sign);
    s.latencyDaily.run(org, 'response', day, asst, ch, b, sign);
  }
  if (!countsAsModel(u)) return;
  const figures = [u.provider, u.model ?? '', sign, sign * (u.promptTokens ?? 0), sign * (u.completionTokens ?? 0),
    sign * Number(u.providerMs !== null), sign * (u.providerMs ?? 0)];
  s.usageHourly.run(org, hour, asst, ch, ...figures);
  s.usageDaily.run(org, day, asst, ch, ...figures);
  if (u.providerMs !== null) {
    const b = latencyBucket(u.providerMs);
    s.latencyHourly.run(org, 'provider', hour, asst, ch, b, sign);
    s.latencyDaily.run(org, 'provider', day, asst, ch, b, sign);
  }
}

function addCounters(db: Db, cell: RollupCell, at: string, c: Counters): void {
  statementsFor(db).hourly.run(cell.organizationId, hourOf(at), cell.assistantId, cell.channel, c.conversations ?? 0, c.messages ?? 0,
    c.answered ?? 0, c.unanswered ?? 0, c.up ?? 0, c.down ?? 0, c.handoffs ?? 0);
}

export const rollups = {
  /** A conversation was created (counts in the hour it started). */
  conversationStarted(db: Db, cell: RollupCell, startedAt: string): void {
    addCounters(db, cell, startedAt, { conversations: 1 });
  },

  /** Messages were written at `at` (one append: the same hour for all). */
  messagesAdded(db: Db, cell: RollupCell, at: string, messages: readonly MessageFigures[]): void {
    if (!messages.length) return;
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
    addCounters(db, cell, at, { messages: messages.length, answered, unanswered, up, down });
    for (const m of messages) addTimesAndUsage(db, cell, at, m.responseMs, m.usage, 1);
  },

  /** The documents an answer cited (distinct ids), for analytics/sources.ts. */
  citations(db: Db, messageId: string, documentIds: Iterable<string>): void {
    const s = statementsFor(db);
    for (const id of documentIds) s.citation.run(messageId, id);
  },

  /** A message's rating changed (counts in the hour the message was written). */
  ratingChanged(db: Db, cell: RollupCell, createdAt: string, before: 'up' | 'down' | null, after: 'up' | 'down' | null): void {
    if (before === after) return;
    addCounters(db, cell, createdAt, { up: Number(after === 'up') - Number(before === 'up'), down: Number(after === 'down') - Number(before === 'down') });
  },

  /** handoff_requested_at moved from `before` to `after` (a repeated request moves the count to its hour). */
  handoffMoved(db: Db, cell: RollupCell, before: string | null, after: string): void {
    if (before !== null && hourOf(before) === hourOf(after)) return;
    if (before !== null) addCounters(db, cell, before, { handoffs: -1 });
    addCounters(db, cell, after, { handoffs: 1 });
  },

  /** A message's usage was rewritten: the old figures out, the new in. */
  usageChanged(db: Db, cell: RollupCell, createdAt: string, before: ModelUsage | null, after: ModelUsage | null): void {
    addTimesAndUsage(db, cell, createdAt, null, before, -1);
    addTimesAndUsage(db, cell, createdAt, null, after, 1);
  },
};

const MIGRATION_024 = fileURLToPath(new URL('../db/migrations/024-analytics-rollups-in-code.sql', import.meta.url));

/**
 * Recomputes every counted rollup from the stored rows: migration 024's backfill, the one
 * definition of what the rollups hold. For bulk loads that wrote rows directly (benches,
 * imports) and for tests comparing the incremental writes with a recomputation.
 */
export function rebuildRollups(db: Db): void {
  const sql = fs.readFileSync(MIGRATION_024, 'utf8');
  db.transaction(() => db.exec(sql.slice(sql.indexOf('-- Backfill'))))();
}
