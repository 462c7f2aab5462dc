import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createUsageRecorder } from './usage-recorder.js';
import { knowledgeGapHooks } from '../chat/conversation-hooks.js';
import { combineHooks, createConversationStore, type Channel, type Conversation } from '../conversations/store.js';
import { conversationRollups } from './conversation-rollups.js';
import { migrate } from '../db/migrate.js';
import { openDb, type Db } from '../db/open.js';
import type { Queryable, SqlParams, Storage } from '../storage/port.js';
import { createSqliteStorage } from '../storage/sqlite.js';
import { freshPostgresStorage, testDatabase } from '../../test/postgres.js';
import { seededRandom } from '../lib/seeded-random.js';
import { CHANNELS } from './channel.js';
import type { ConversationFilter } from './filters.js';
import { rebuildRollups } from './rollup-rebuild.js';
import { latencyBucket, type ModelUsage } from './rollup-writes.js';
import { computeMetrics } from './service.js';
import { bucketValue, computeTimeseries } from './timeseries.js';

/** The SQLite connection of the migration 024 test (SQLite's own history). */
let db: Db | undefined;
/** Closes (SQLite) or empties (PostgreSQL) the database `open()` gave. */
let closeOpened: (() => Promise<void>) | undefined;
afterEach(async () => {
  db?.close();
  db = undefined;
  await closeOpened?.();
  closeOpened = undefined;
});

const ORG = 'org_r';
const ASSISTANTS = ['asst_r1', 'asst_r2'];
const SOURCES: [Channel, string | null][] = [
  ['widget', null],
  ['api', null],
  ['api', 'Slack'],
  ['app', 'discord'],
  ['api', 'teams'],
  ['api', 'playground'],
  ['widget', 'web'],
];
const USAGES: (ModelUsage | null)[] = [
  null,
  { provider: 'extractive', model: null, promptTokens: null, completionTokens: null, providerMs: 2.5 },
  { provider: 'openai', model: 'gpt-a', promptTokens: 120, completionTokens: 30, providerMs: 410.5 },
  { provider: 'openai', model: null, promptTokens: 80, completionTokens: 12, providerMs: null },
  { provider: 'anthropic', model: 'claude-b', promptTokens: 300, completionTokens: 45, providerMs: 1234.5 },
];

/** A fresh database of the project (SQLite in memory, or PostgreSQL) with the organization and its assistants. */
async function open(): Promise<Storage> {
  await closeOpened?.();
  let storage: Storage;
  if (testDatabase === 'postgres') {
    const pg = await freshPostgresStorage();
    storage = pg.storage;
    closeOpened = () => pg.drop();
  } else {
    const d = openDb(':memory:');
    migrate(d);
    const sqlite = createSqliteStorage(d);
    storage = sqlite;
    closeOpened = () => sqlite.close();
  }
  await storage.run("INSERT INTO organizations (id, name, created_at) VALUES (?, 'R', '2026-01-01T00:00:00.000Z')", [ORG]);
  for (const id of ASSISTANTS) {
    await storage.run(
      "INSERT INTO assistants (id, organization_id, type, name, config, created_at, updated_at) VALUES (?, ?, 'api', ?, '{}', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')",
      [id, ORG, id],
    );
  }
  return storage;
}

/** Every rollup row that counts something, in a stable order (rows a change brought back to zero are equal to no row). */
async function snapshot(q: Queryable) {
  const fix = (rows: Record<string, unknown>[]) =>
    rows.map((r) => ({ ...r, ...('provider_ms_sum' in r && { provider_ms_sum: Math.round(Number(r.provider_ms_sum) * 1000) / 1000 }) }));
  return {
    hourly:
      await q.all(`SELECT * FROM analytics_hourly WHERE conversations <> 0 OR messages <> 0 OR answered <> 0 OR unanswered <> 0 OR up <> 0 OR down <> 0 OR handoffs <> 0
      ORDER BY organization_id, hour, assistant_id, channel`),
    hourlyUsage: fix(
      await q.all(
        'SELECT * FROM analytics_hourly_usage WHERE answers <> 0 ORDER BY organization_id, hour, assistant_id, channel, provider, model',
      ),
    ),
    dailyUsage: fix(
      await q.all(
        'SELECT * FROM analytics_daily_usage WHERE answers <> 0 ORDER BY organization_id, day, assistant_id, channel, provider, model',
      ),
    ),
    latencyHourly: await q.all(
      'SELECT * FROM analytics_latency_hourly WHERE count <> 0 ORDER BY organization_id, metric, hour, assistant_id, channel, bucket',
    ),
    latencyDaily: await q.all(
      'SELECT * FROM analytics_latency_daily WHERE count <> 0 ORDER BY organization_id, metric, day, assistant_id, channel, bucket',
    ),
  };
}

/**
 * A random mix of every write that moves a rollup, through the code that does it in the
 * product: conversations started (alone, or with their first turn as chat does), turns appended (answered, fallbacks, response times, model
 * usage), human replies, ratings set and changed, handoffs asked (and asked again later), usage
 * rewritten. Times wander over three days, so hours and days both split.
 */
async function randomWrites(storage: Storage, seed: number, steps: number) {
  const rand = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
  const store = createConversationStore(storage, combineHooks(conversationRollups, knowledgeGapHooks));
  const recordUsage = createUsageRecorder(storage);
  const conversations: Conversation[] = [];
  const answers: { id: string; conversationId: string }[] = [];
  let now = Date.parse('2026-03-01T22:00:00Z');
  for (let step = 0; step < steps; step++) {
    now += Math.floor(rand() * 40 * 60_000);
    const at = new Date(now).toISOString();
    const r = rand();
    if (r < 0.2 || !conversations.length) {
      const [channel, source] = pick(SOURCES);
      const input = {
        organizationId: ORG,
        assistantId: pick(ASSISTANTS),
        sessionId: `s${step}`,
        channel,
        metadata: source ? { source } : {},
      };
      if (rand() < 0.5) conversations.push(await storage.tx((tx) => store.create(tx, input, at)));
      else {
        // A chat turn's way: created with its first messages, written up to 90 minutes later (another hour, sometimes).
        const later = new Date(now + Math.floor(rand() * 90 * 60_000)).toISOString();
        const started = await storage.tx((tx) =>
          store.startWith(
            tx,
            input,
            at,
            [
              { role: 'user', content: 'q', metadata: null },
              {
                role: 'assistant',
                content: 'a',
                metadata: null,
                answered: rand() < 0.7,
                responseMs: Math.round(rand() * 5000) / 10,
                usage: pick(USAGES),
                citedDocumentIds: [],
              },
            ],
            later,
          ),
        );
        conversations.push(started.conversation);
        answers.push({ id: (started.messages[1] as { id: string }).id, conversationId: started.conversation.id });
      }
    } else if (r < 0.6) {
      const c = pick(conversations);
      const answered = rand() < 0.3 ? null : rand() < 0.75;
      const responseMs = rand() < 0.1 ? null : Math.round(Math.exp(rand() * 9) * 10) / 10;
      const ref = rand() < 0.5 ? c : c.id;
      const written = await storage.tx((tx) =>
        store.append(
          tx,
          ref,
          [
            { role: 'user', content: 'q', metadata: null },
            { role: 'assistant', content: 'a', metadata: null, answered, responseMs, confidence: 0.5, usage: pick(USAGES) },
          ],
          at,
        ),
      );
      answers.push({ id: (written[1] as { id: string }).id, conversationId: c.id });
    } else if (r < 0.65) {
      const id = pick(conversations).id;
      await storage.tx((tx) => store.append(tx, id, [{ role: 'human_agent', content: 'h', metadata: null }], at));
    } else if (r < 0.8 && answers.length) {
      const a = pick(answers);
      await store.rate(a.conversationId, a.id, rand() < 0.5 ? 'up' : 'down', null, at);
    } else if (r < 0.9) {
      await store.requestHandoff(pick(conversations).id, at, { email: null, note: null });
    } else if (answers.length) {
      const u = pick(USAGES);
      await recordUsage(
        pick(answers).id,
        u === null
          ? { provider: 'extractive', model: null, usage: null, providerMs: null }
          : {
              provider: u.provider,
              model: u.model,
              usage: u.promptTokens === null ? null : { promptTokens: u.promptTokens, completionTokens: u.completionTokens ?? 0 },
              providerMs: u.providerMs,
            },
      );
    }
  }
}

describe("analytics rollups written by the code (migration 024), on the project's database", () => {
  it('equal a recomputation from the stored rows after a random mix of writes', async () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const storage = await open();
      await randomWrites(storage, seed, 400);
      const kept = await snapshot(storage);
      expect(kept.hourly.length, `seed ${seed}`).toBeGreaterThan(20);
      expect(kept.hourlyUsage.length, `seed ${seed}`).toBeGreaterThan(5);
      // The rebuild starts from nothing: what it writes is its own recomputation.
      for (const table of [
        'analytics_hourly',
        'analytics_hourly_usage',
        'analytics_daily_usage',
        'analytics_latency_hourly',
        'analytics_latency_daily',
      ]) {
        await storage.run(`DELETE FROM ${table}`);
      }
      await rebuildRollups(storage);
      expect(await snapshot(storage), `seed ${seed}`).toEqual(kept);
    }
  }, 180_000); // 2,000 writes, each its own transaction: a few seconds on SQLite, longer on a busy PostgreSQL

  it('are added up per row within a transaction and written at its commit, not before', async () => {
    const storage = await open();
    const store = createConversationStore(storage, combineHooks(conversationRollups, knowledgeGapHooks));
    const at = '2026-03-02T10:15:00.000Z';
    const c = await storage.tx((tx) =>
      store.create(tx, { organizationId: ORG, assistantId: 'asst_r1', sessionId: 's-late', channel: 'api', metadata: {} }, at),
    );
    const hourRow = (q: Queryable) =>
      q.get<{ conversations: number; messages: number; answered: number }>(
        "SELECT conversations, messages, answered FROM analytics_hourly WHERE organization_id = ? AND assistant_id = ? AND hour = '2026-03-02T10'",
        [ORG, 'asst_r1'],
      );
    expect(await hourRow(storage)).toEqual({ conversations: 1, messages: 0, answered: 0 });
    const turn = [
      { role: 'user' as const, content: 'q', metadata: null },
      { role: 'assistant' as const, content: 'a', metadata: null, answered: true, responseMs: 12.5, confidence: 0.9, usage: null },
    ];
    const seenInside = await storage.tx(async (tx) => {
      await store.append(tx, c.id, turn, at);
      await store.append(tx, c.id, turn, at);
      return hourRow(tx); // the transaction's own view: its additions are not written yet
    });
    expect(seenInside).toEqual({ conversations: 1, messages: 0, answered: 0 });
    expect(await hourRow(storage)).toEqual({ conversations: 1, messages: 4, answered: 2 });
    const latency = await storage.all<{ count: number }>(
      "SELECT count FROM analytics_latency_hourly WHERE organization_id = ? AND metric = 'response' AND hour = '2026-03-02T10'",
      [ORG],
    );
    expect(latency).toEqual([{ count: 2 }]); // one row, both answers' times added
    // A transaction that fails after its additions leaves the rollups as they were.
    await storage
      .tx(async (tx) => {
        await store.append(tx, c.id, turn, at);
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    expect(await hourRow(storage)).toEqual({ conversations: 1, messages: 4, answered: 2 });
  });

  it('give the exact totals, and p95 and per-hour p50 within ±5 %', async () => {
    const storage = await open();
    await randomWrites(storage, 42, 600);
    // No date range: messages then count the same whether by the hour they were written
    // (rollups) or by their conversation (the exact scan), and the rollups read the daily tables.
    const filter: ConversationFilter = {
      org: ORG,
      from: null,
      to: null,
      assistantId: null,
      userId: null,
      source: null,
      q: null,
      channels: JSON.stringify(CHANNELS),
      rating: null,
      fellBack: null,
      handoff: null,
      sort: 'startedAt',
      order: 'desc',
    };
    const rolled = await computeMetrics(storage, filter);
    // A content filter matching every message takes the exact path (it leaves out conversations without messages: counted apart).
    const exact = await computeMetrics(storage, { ...filter, q: '%' });
    const count = async (sql: string) => (await storage.get<{ n: number }>(sql))?.n;
    expect(rolled.totalMessages).toBeGreaterThan(100);
    expect(rolled.totalConversations).toBe(await count('SELECT count(*) AS n FROM conversations'));
    expect(rolled.handoffs).toBe(await count('SELECT count(*) AS n FROM conversations WHERE handoff_requested_at IS NOT NULL'));
    const same = (m: typeof rolled) => ({
      totalMessages: m.totalMessages,
      satisfaction: m.satisfaction,
      coverage: m.knowledgeBaseCoverage,
      unanswered: m.unansweredCount,
      usage: { ...m.usage, p95ProviderMs: 0 },
    });
    expect(same(rolled)).toEqual(same(exact));
    const within5 = (a: number | null, b: number | null) => expect(Math.abs((a as number) / (b as number) - 1)).toBeLessThanOrEqual(0.05);
    within5(rolled.p95ResponseMs, exact.p95ResponseMs);
    within5(rolled.avgResponseMs, exact.avgResponseMs);
    within5(rolled.usage.p95ProviderMs, exact.usage.p95ProviderMs);

    const from = Date.parse('2026-03-02T05:00:00Z');
    const to = Date.parse('2026-03-03T17:59:59.999Z');
    // Per hour: the p50 of each hour's stored response times against the rollup's.
    const series = await computeTimeseries(storage, {
      org: ORG,
      assistantId: null,
      channels: JSON.stringify(CHANNELS),
      from,
      to,
      interval: 'hour',
      metric: 'response_ms_p50',
    });
    const times = await storage.all<{ h: string; ms: number }>(
      'SELECT substr(created_at, 1, 13) AS h, response_ms AS ms FROM messages WHERE response_ms IS NOT NULL ORDER BY response_ms',
    );
    let compared = 0;
    for (const p of series) {
      const inHour = times.filter((t) => t.h === p.t.slice(0, 13)).map((t) => t.ms);
      if (!inHour.length) {
        expect(p.value).toBeNull();
        continue;
      }
      const exactP50 = inHour[Math.max(1, Math.ceil(inHour.length * 0.5)) - 1] as number;
      // The rollup reads its bucket's middle: the exact value's bucket, within ±5 %.
      expect(p.value).toBe(Math.round(bucketValue(latencyBucket(exactP50)) * 10) / 10);
      if (exactP50 >= 1) expect(Math.abs((p.value as number) / exactP50 - 1)).toBeLessThanOrEqual(0.05);
      compared++;
    }
    expect(compared).toBeGreaterThan(10);
  });

  it("give each hour's and day's p95 for one assistant and some channels: the exact value's bucket", async () => {
    const storage = await open();
    await randomWrites(storage, 5, 500);
    const channels = ['widget', 'slack', 'api'];
    const times = await storage.all<{ at: string; ms: number }>(
      `SELECT m.created_at AS at, m.response_ms AS ms
      FROM messages m JOIN conversations c ON c.id = m.conversation_id
      WHERE c.assistant_id = ? AND c.channel_group IN ('widget', 'slack', 'api') AND m.response_ms IS NOT NULL
      ORDER BY m.response_ms`,
      [ASSISTANTS[0] as string],
    );
    for (const interval of ['hour', 'day'] as const) {
      const cut = interval === 'hour' ? 13 : 10;
      const series = await computeTimeseries(storage, {
        org: ORG,
        assistantId: ASSISTANTS[0] as string,
        channels: JSON.stringify(channels),
        interval,
        metric: 'response_ms_p95',
        from: Date.parse('2026-03-01T00:00:00Z'),
        to: Date.parse('2026-03-12T23:59:59.999Z'),
      });
      let compared = 0;
      for (const p of series) {
        const inBucket = times.filter((t) => t.at.slice(0, cut) === p.t.slice(0, cut)).map((t) => t.ms);
        if (!inBucket.length) {
          expect(p.value).toBeNull();
          continue;
        }
        const exact = inBucket[Math.ceil(inBucket.length * 0.95) - 1] as number;
        expect(p.value).toBe(Math.round(bucketValue(latencyBucket(exact)) * 10) / 10);
        compared++;
      }
      expect(compared).toBeGreaterThan(interval === 'hour' ? 20 : 3);
    }
  });

  it('migration 031 keeps every histogram row, keyed so the time series needs no sort of them (SQLite)', async () => {
    const dir = fileURLToPath(new URL('../db/migrations/', import.meta.url));
    const files = fs
      .readdirSync(dir)
      .filter((f) => /^\d{3}-[\w-]+\.sql$/.test(f))
      .sort();
    db = openDb(':memory:');
    const d = db;
    for (const f of files.filter((name) => Number(name.slice(0, 3)) <= 30)) {
      d.exec(fs.readFileSync(`${dir}${f}`, 'utf8'));
    }
    const storage = createSqliteStorage(d);
    const at = '2026-01-01T00:00:00Z';
    await storage.run("INSERT INTO organizations (id, name, created_at) VALUES (?, 'R', ?)", [ORG, at]);
    for (const id of ASSISTANTS) {
      await storage.run(
        `INSERT INTO assistants (id, organization_id, type, name, config, created_at, updated_at)
        VALUES (?, ?, 'api', ?, '{}', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`,
        [id, ORG, id],
      );
    }
    await randomWrites(storage, 31, 300);
    const rows = () => ({
      hourly: d.prepare('SELECT * FROM analytics_latency_hourly ORDER BY 1, 2, 3, 4, 5, 6').all(),
      daily: d.prepare('SELECT * FROM analytics_latency_daily ORDER BY 1, 2, 3, 4, 5, 6').all(),
    });
    const before = rows();
    expect(before.hourly.length).toBeGreaterThan(100);
    // The time series' statements as SQLite would run them: what its plan says.
    const plans: string[] = [];
    const explain: Queryable = {
      dialect: 'sqlite',
      all: async <T>(sql: string, params?: SqlParams) => {
        const steps = await storage.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`, params);
        plans.push(steps.map((r) => r.detail).join('; '));
        return [] as T[];
      },
      get: async () => undefined,
      run: async () => ({ changes: 0 }),
    };
    const series = (interval: 'hour' | 'day') =>
      computeTimeseries(explain, {
        org: ORG,
        assistantId: null,
        channels: JSON.stringify(CHANNELS),
        interval,
        metric: 'response_ms_p95',
        from: Date.parse('2026-03-01T00:00:00Z'),
        to: Date.parse('2026-03-04T00:00:00Z'),
      });
    await series('hour');
    await series('day');
    // Two sorts: the histogram rows per (time bucket, histogram bucket), then their sums per time bucket.
    const sorts = (plan: string) => plan.match(/USE TEMP B-TREE FOR GROUP BY/g)?.length ?? 0;
    expect(plans).toHaveLength(2);
    expect(plans.map(sorts)).toEqual([2, 2]);

    d.exec(fs.readFileSync(`${dir}${files.find((f) => f.startsWith('031-'))}`, 'utf8'));
    expect(rows()).toEqual(before);
    const key = (table: string) =>
      (d.prepare(`PRAGMA table_xinfo(${table})`).all() as { name: string; pk: number }[])
        .filter((c) => c.pk > 0)
        .sort((a, b) => a.pk - b.pk)
        .map((c) => c.name);
    const order = (time: string) => ['organization_id', 'metric', time, 'bucket', 'assistant_id', 'channel'];
    expect(key('analytics_latency_hourly')).toEqual(order('hour'));
    expect(key('analytics_latency_daily')).toEqual(order('day'));
    plans.length = 0;
    await series('hour');
    await series('day');
    // The rows come out of the key already grouped per (time bucket, histogram bucket): only the
    // sums (a quarter as many on the bench's data) are sorted per time bucket.
    expect(plans.map(sorts)).toEqual([1, 1]);
    for (const plan of plans) {
      expect(plan).toMatch(/SEARCH analytics_latency_(hourly|daily) USING PRIMARY KEY \(organization_id=/);
    }
  });

  it("migration 024 keeps what the triggers of 018-022 had counted on an existing install (SQLite's own history)", () => {
    // The schema at 023 with its triggers, rows written straight into the tables (the triggers count them).
    const dir = fileURLToPath(new URL('../db/migrations/', import.meta.url));
    const files = fs
      .readdirSync(dir)
      .filter((f) => /^\d{3}-[\w-]+\.sql$/.test(f))
      .sort();
    db = openDb(':memory:');
    const d = db;
    for (const f of files.filter((name) => Number(name.slice(0, 3)) <= 23)) d.exec(fs.readFileSync(`${dir}${f}`, 'utf8'));
    d.prepare("INSERT INTO organizations (id, name, created_at) VALUES (?, 'R', '2026-01-01T00:00:00.000Z')").run(ORG);
    d.prepare(
      "INSERT INTO assistants (id, organization_id, type, name, config, created_at, updated_at) VALUES (?, ?, 'api', 'a', '{}', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')",
    ).run(ASSISTANTS[0], ORG);
    const rand = seededRandom(7);
    const insertMsg =
      d.prepare(`INSERT INTO messages (id, seq, conversation_id, role, content, answered, response_ms, created_at, provider, model, prompt_tokens, completion_tokens, provider_ms)
      VALUES (?, ?, ?, 'assistant', 'a', ?, ?, ?, ?, ?, ?, ?, ?)`);
    let seq = 0;
    for (let i = 0; i < 60; i++) {
      const at = new Date(Date.parse('2026-03-01T20:00:00Z') + i * 17 * 60_000).toISOString();
      const [channel, source] = SOURCES[i % SOURCES.length] as [string, string | null];
      d.prepare(
        `INSERT INTO conversations (id, organization_id, assistant_id, session_id, channel, source, started_at, last_message_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(`c${i}`, ORG, ASSISTANTS[0], `s${i}`, channel, source, at, at);
      for (let k = 0; k < 3; k++) {
        const u = USAGES[Math.floor(rand() * USAGES.length)] ?? null;
        insertMsg.run(
          `m${++seq}`,
          seq,
          `c${i}`,
          rand() < 0.8 ? 1 : 0,
          Math.round(Math.exp(rand() * 8) * 10) / 10,
          at,
          u?.provider ?? null,
          u?.model ?? null,
          u?.promptTokens ?? null,
          u?.completionTokens ?? null,
          u?.providerMs ?? null,
        );
      }
      if (i % 5 === 0) d.prepare('UPDATE conversations SET handoff_requested_at = ? WHERE id = ?').run(at, `c${i}`);
      if (i % 4 === 0) d.prepare("UPDATE messages SET rating = 'down' WHERE id = ?").run(`m${seq}`);
    }
    const counters =
      'SELECT organization_id, hour, assistant_id, channel, conversations, messages, answered, unanswered, up, down, handoffs FROM analytics_hourly ORDER BY 1, 2, 3, 4';
    const usage =
      'SELECT organization_id, hour, assistant_id, channel, provider, model, answers, prompt_tokens, completion_tokens, provider_ms_count, provider_ms_sum FROM analytics_hourly_usage ORDER BY 1, 2, 3, 4, 5, 6';
    // The JSON histograms summed per (hour, bucket), over channels, providers and models.
    const histogram = (sql: string) => {
      const sums = new Map<string, number>();
      for (const r of d.prepare(sql).all() as { hour: string; latency: string }[]) {
        for (const [bucket, count] of Object.entries(JSON.parse(r.latency) as Record<string, number>))
          sums.set(`${r.hour} ${bucket}`, (sums.get(`${r.hour} ${bucket}`) ?? 0) + count);
      }
      return [...sums].map(([k, n]) => `${k} ${n}`).sort();
    };
    const before = {
      counters: d.prepare(counters).all(),
      usage: d.prepare(usage).all(),
      response: histogram('SELECT hour, latency FROM analytics_hourly'),
      provider: histogram('SELECT hour, provider_latency AS latency FROM analytics_hourly_usage'),
    };
    expect(before.response.length).toBeGreaterThan(20);
    d.exec(fs.readFileSync(`${dir}${files.find((f) => f.startsWith('024-'))}`, 'utf8'));
    const rows = (metric: string) =>
      (
        d
          .prepare('SELECT hour, bucket, sum(count) AS n FROM analytics_latency_hourly WHERE metric = ? GROUP BY hour, bucket')
          .all(metric) as { hour: string; bucket: number; n: number }[]
      )
        .map((r) => `${r.hour} ${r.bucket} ${r.n}`)
        .sort();
    expect({
      counters: d.prepare(counters).all(),
      usage: d.prepare(usage).all(),
      response: rows('response'),
      provider: rows('provider'),
    }).toEqual(before);
  });
});
