import { describe, expect, it } from 'vitest';
import { setupShop } from '../../test/fixtures.js';
import { createUsageRecorder } from './usage-recorder.js';
import { rebuildRollups } from './rollup-rebuild.js';
import { rollupSpan } from './service.js';
import { serverPerTest } from '../../test/server-per-test.js';

const env = serverPerTest('2026-05-01T10:15:00Z');

const MODELS: [string, string | null][] = [
  ['openai', 'gpt-a'],
  ['anthropic', 'claude-b'],
  ['openai', null],
  ['extractive', null],
];

/**
 * Answers over two days and two channels through the real chat route; each answer's usage then
 * written by the recorder the chat path uses (the extractive answerer reports none), with
 * provider times spread over two orders of magnitude.
 */
async function seedUsage() {
  const shop = await setupShop(env.server.url);
  const record = createUsageRecorder(env.server.ctx.storage);
  const questions = ['How do I reset my password?', 'How long does shipping take?', 'Do you sell gift cards?'];
  for (let i = 0; i < 24; i++) {
    env.clock.set(Date.parse('2026-05-01T10:15:00Z') + i * 2 * 3_600_000);
    const res = await shop.api.post(shop.chatPath, {
      message: questions[i % questions.length],
      sessionId: `s-${i}`,
      metadata: i % 3 === 0 ? { source: 'slack', userId: `u${i}` } : { userId: `u${i}` },
    });
    expect(res.status).toBe(200);
    const [provider, model] = MODELS[i % MODELS.length] as [string, string | null];
    await record(res.body.messageId as string, {
      provider,
      model,
      usage: provider === 'extractive' ? null : { promptTokens: 100 + i * 7, completionTokens: 10 + i },
      providerMs: i % 5 === 4 ? null : 40 * 1.23 ** i,
    });
  }
  return shop;
}

const metrics = async (shop: Awaited<ReturnType<typeof setupShop>>, query: string) => {
  const res = await shop.api.get(`/v1/analytics/metrics?${query}`);
  expect(res.status).toBe(200);
  return res.body.data as {
    usage: {
      modelAnswers: number;
      promptTokens: number;
      completionTokens: number;
      avgProviderMs: number | null;
      p95ProviderMs: number | null;
      byModel: unknown[];
    };
  };
};

describe('model usage in GET /v1/analytics/metrics from the usage rollups (migrations 022, 024)', () => {
  it('equals the exact scan for tokens, answers and averages; the p95 within ±5 %', async () => {
    const shop = await seedUsage();
    // Partial days only; a whole day and a partial one (days and hours tables); whole days; open ends.
    for (const range of [
      '',
      'from=2026-05-01T14:00:00Z&to=2026-05-02T08:59:59Z',
      'from=2026-05-01&to=2026-05-02T13:59:59Z',
      'from=2026-05-01&to=2026-05-02',
      'from=2026-05-02T05:00:00Z',
      'to=2026-05-02T05:59:59Z',
      'channel=slack',
      `assistantId=${shop.assistantId}&channel=api,slack`,
    ]) {
      const rolled = (await metrics(shop, range)).usage;
      // handoff=false (no conversation asked for one) is the same set but forces the exact path.
      const exact = (await metrics(shop, `${range}&handoff=false`)).usage;
      expect(rolled.modelAnswers).toBeGreaterThan(0);
      expect({ ...rolled, p95ProviderMs: null }).toEqual({ ...exact, p95ProviderMs: null });
      expect(Math.abs((rolled.p95ProviderMs as number) / (exact.p95ProviderMs as number) - 1)).toBeLessThanOrEqual(0.05);
    }
    const all = (await metrics(shop, '')).usage;
    // 24 answers, a quarter extractive: 18 by a model, model null kept apart from named ones.
    expect(all.modelAnswers).toBe(18);
    expect(all.byModel).toContainEqual(expect.objectContaining({ provider: 'openai', model: null, answers: 6 }));
  });

  it('a rewritten usage replaces the old figures instead of adding to them', async () => {
    const shop = await seedUsage();
    const before = (await metrics(shop, '')).usage;
    const answer = (await env.server.ctx.storage.get<{ id: string; p: number; c: number; ms: number }>(
      "SELECT id, provider, model, prompt_tokens AS p, completion_tokens AS c, provider_ms AS ms FROM messages WHERE provider = 'openai' AND model = 'gpt-a' LIMIT 1",
    )) as { id: string; p: number; c: number; ms: number };
    await createUsageRecorder(env.server.ctx.storage)(answer.id, {
      provider: 'anthropic',
      model: 'claude-b',
      usage: { promptTokens: answer.p + 1000, completionTokens: answer.c },
      providerMs: answer.ms,
    });
    const after = (await metrics(shop, '')).usage;
    expect(after.modelAnswers).toBe(before.modelAnswers);
    expect(after.promptTokens).toBe(before.promptTokens + 1000);
    expect({ ...after, p95ProviderMs: null }).toEqual({ ...(await metrics(shop, 'handoff=false')).usage, p95ProviderMs: null });
    // Rewritten as extractive: no longer a model answer.
    await createUsageRecorder(env.server.ctx.storage)(answer.id, { provider: 'extractive', model: null, usage: null, providerMs: 3 });
    expect((await metrics(shop, '')).usage.modelAnswers).toBe(before.modelAnswers - 1);
  });

  it('a rebuild from the stored rows gives the same rows the chat path and the recorder keep, per hour and per day', async () => {
    await seedUsage();
    const { storage } = env.server.ctx;
    const read = () =>
      Promise.all([
        storage.all('SELECT * FROM analytics_hourly ORDER BY hour, assistant_id, channel'),
        storage.all('SELECT * FROM analytics_hourly_usage WHERE answers <> 0 ORDER BY hour, assistant_id, channel, provider, model'),
        storage.all('SELECT * FROM analytics_daily_usage WHERE answers <> 0 ORDER BY day, assistant_id, channel, provider, model'),
        storage.all('SELECT * FROM analytics_latency_hourly WHERE count <> 0 ORDER BY metric, hour, assistant_id, channel, bucket'),
        storage.all('SELECT * FROM analytics_latency_daily WHERE count <> 0 ORDER BY metric, day, assistant_id, channel, bucket'),
      ]);
    const kept = await read();
    for (const rows of kept) expect(rows.length).toBeGreaterThan(5);
    // Lost and wrong rollups (what a bulk load that bypassed the code leaves) are replaced.
    await storage.run('DELETE FROM analytics_hourly_usage');
    await storage.run('UPDATE analytics_hourly SET messages = messages + 7');
    await storage.run("DELETE FROM analytics_latency_daily WHERE metric = 'response'");
    expect(await read()).not.toEqual(kept);
    await rebuildRollups(storage);
    expect(await read()).toEqual(kept);
  });
});

describe('rollupSpan', () => {
  it('reads whole days per day and the partial ends per hour', () => {
    expect(rollupSpan({ from: '2026-05-01T14:20:00.000Z', to: '2026-05-04T08:59:59.999Z' })).toEqual({
      fromHour: '2026-05-01T14',
      toHour: '2026-05-04T08',
      firstDay: '2026-05-02',
      lastDay: '2026-05-03',
      lowBefore: '2026-05-02T00',
      highAfter: '2026-05-03T23',
    });
    expect(rollupSpan({ from: '2026-05-01T00:00:00.000Z', to: '2026-05-01T23:59:59.999Z' })).toMatchObject({
      firstDay: '2026-05-01',
      lastDay: '2026-05-01',
    });
    // No whole day inside: every hour from the hourly table, no day.
    expect(rollupSpan({ from: '2026-05-01T14:00:00.000Z', to: '2026-05-02T08:00:00.000Z' })).toEqual({
      fromHour: '2026-05-01T14',
      toHour: '2026-05-02T08',
      firstDay: '~',
      lastDay: '',
      lowBefore: '2026-05-02T08~',
      highAfter: '~',
    });
    expect(rollupSpan({ from: null, to: null })).toEqual({
      fromHour: '',
      toHour: '9999-12-31T23',
      firstDay: '',
      lastDay: '9999-12-31',
      lowBefore: '',
      highAfter: '9999-12-31T23',
    });
  });
});
