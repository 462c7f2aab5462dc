import type { Server } from 'node:http';
import express from 'express';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../auth/permissions.js';
import { errorHandler } from '../http/errors.js';
import { rateLimit } from '../http/rate-limit.js';
import { createLogger, type Logger } from '../lib/logger.js';
import { systemClock } from '../lib/clock.js';
import { DAY_MS } from './decision.js';
import { createMemoryLimitStore } from './memory.js';
import type { LimitStore } from './port.js';
import { connectTestRedis, closedPort, REDIS_TEST_URL, redisNowMs, redisRelay } from './redis-testing.js';
import { createRedisLimitStore, failureKeys, rateLimitKeys } from './redis.js';

// Real Redis (127.0.0.1:6379, or REDIS_TEST_URL): the file fails, never skips, without it.
let admin: Redis;
let prefix: string;
let cleanup: () => Promise<void>;
const stores: LimitStore[] = [];
const silent = createLogger('silent');

/** One "instance": its own connection, the shared prefix. */
function instance(opts: { url?: string; logger?: Logger } = {}) {
  const store = createRedisLimitStore({ url: opts.url ?? REDIS_TEST_URL, prefix, logger: opts.logger ?? silent });
  stores.push(store);
  return store;
}

beforeAll(async () => {
  ({ admin, prefix, cleanup } = await connectTestRedis());
});
afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
  await cleanup?.();
});

let keyCounter = 0;
const freshKey = (what: string): string => `${what}-${++keyCounter}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const count = <T>(xs: T[], pred: (x: T) => boolean): number => xs.filter(pred).length;

describe('Redis limit store: exact across instances, on Redis time', () => {
  it('admits exactly R of 200 parallel takes from two instances (minute and day)', async () => {
    const [a, b] = [instance(), instance()];
    const key = freshKey('key');
    const limits = { perMinute: 60, perDay: 100_000 };
    for (let i = 0; i < 15; i++) expect((await a.take(key, limits)).allowed).toBe(true); // 45 of 60 remain
    const decisions = await Promise.all(Array.from({ length: 200 }, (_, i) => (i % 2 ? a : b).take(key, limits)));
    const admitted = decisions.filter((d) => d.allowed);
    expect(admitted).toHaveLength(45);
    // Each admission saw its own count: remaining 44, 43, … 0, each once.
    expect(admitted.map((d) => d.remaining).sort((x, y) => x - y)).toEqual(Array.from({ length: 45 }, (_, i) => i));
    for (const d of decisions.filter((x) => !x.allowed)) expect(d).toMatchObject({ limit: 60, remaining: 0 });

    const dayKey = freshKey('daily');
    const day = await Promise.all(Array.from({ length: 200 }, (_, i) => (i % 2 ? a : b).take(dayKey, { perMinute: 1000, perDay: 37 })));
    expect(count(day, (d) => d.allowed)).toBe(37);
    expect(day.find((d) => !d.allowed)).toMatchObject({ limit: 37, remaining: 0 });
  });

  it('decides like the memory store: same admissions, limits and remaining for the same sequence', async () => {
    const redis = instance();
    const memory = createMemoryLimitStore(systemClock);
    const key = freshKey('parity');
    const plans = [
      { perMinute: 5, perDay: 8 },
      { perMinute: 3, perDay: Infinity },
      { perMinute: Infinity, perDay: 4 },
      { perMinute: 10, perDay: 7 },
    ];
    for (const [p, limits] of plans.entries()) {
      for (let i = 0; i < 9; i++) {
        const [m, r] = [await memory.take(`${key}-${p}`, limits), await redis.take(`${key}-${p}`, limits)];
        expect({ ...r, resetEpochSeconds: 0, retryAfterSeconds: 0 }).toEqual({ ...m, resetEpochSeconds: 0, retryAfterSeconds: 0 });
        expect(Math.abs(r.resetEpochSeconds - m.resetEpochSeconds)).toBeLessThanOrEqual(1); // two clocks, one second apart at most
        if (!m.allowed) expect(Math.abs(r.retryAfterSeconds - m.retryAfterSeconds)).toBeLessThanOrEqual(1);
      }
    }
  });

  it('frees a slot when the oldest admission is 60 s old by Redis time, with the reset and Retry-After it announced', async () => {
    const a = instance();
    const key = freshKey('window');
    const [log] = rateLimitKeys(prefix, key);
    // Three admissions already in the window, the oldest 58.5 s ago by Redis's clock.
    const oldest = (await redisNowMs(admin)) - 58_500;
    await admin.rpush(log, oldest, oldest + 1500, oldest + 3000);
    await admin.pexpire(log, 60_000);
    const limits = { perMinute: 3, perDay: 1000 };

    const refused = await a.take(key, limits);
    expect(refused).toMatchObject({ allowed: false, limit: 3, remaining: 0, resetEpochSeconds: Math.ceil((oldest + 60_000) / 1000) });
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(2);

    while ((await redisNowMs(admin)) < oldest + 60_000) await sleep(25);
    const admitted = await a.take(key, limits); // the oldest left; the two others are still inside
    expect(admitted).toMatchObject({ allowed: true, remaining: 0, resetEpochSeconds: Math.ceil((oldest + 61_500) / 1000) });
    expect((await a.take(key, limits)).allowed).toBe(false);
    expect(await admin.llen(log)).toBe(3);
  });

  it('never admits more than the limit in any window span (the script on a 400 ms window, two clients)', async () => {
    type Reply = [number, number, number, number, number];
    const clients = [instance(), instance()].map(
      (s) => (s as unknown as { client: { parleyLimit(...args: unknown[]): Promise<Reply> } }).client,
    );
    const [log, day] = rateLimitKeys(prefix, freshKey('span'));
    const admittedAt: number[] = [];
    const started = Date.now();
    let i = 0;
    while (Date.now() - started < 1600) {
      const burst = await Promise.all([0, 1, 2].map(() => clients[i++ % 2]!.parleyLimit(log, day, 'take', 400, 4, -1)));
      for (const [ok, now] of burst) if (ok === 1) admittedAt.push(now);
      await sleep(5 + Math.floor(Math.random() * 20));
    }
    expect(admittedAt.length).toBeGreaterThanOrEqual(4 * 3); // ~4 windows' worth went through
    for (const t of admittedAt) expect(count(admittedAt, (u) => u > t - 400 && u <= t)).toBeLessThanOrEqual(4);
  });

  it('counts the UTC day on Redis time, reports the day policy, and starts again on a new day', async () => {
    const a = instance();
    const key = freshKey('day');
    const limits = { perMinute: 100, perDay: 3 };
    const now = await redisNowMs(admin);
    const nextMidnight = (Math.floor(now / DAY_MS) + 1) * DAY_MS;
    const first = await a.take(key, limits);
    expect(first).toMatchObject({ allowed: true, limit: 3, remaining: 2, resetEpochSeconds: nextMidnight / 1000 });
    await a.take(key, limits);
    await a.take(key, limits);
    const refused = await a.take(key, limits);
    expect(refused).toMatchObject({ allowed: false, limit: 3, remaining: 0, resetEpochSeconds: nextMidnight / 1000 });
    expect(Math.abs(refused.retryAfterSeconds - Math.ceil((nextMidnight - now) / 1000))).toBeLessThanOrEqual(2);

    // The counter says "yesterday": today starts from zero.
    const [, dayKey] = rateLimitKeys(prefix, key);
    await admin.hset(dayKey, 'd', Math.floor(now / DAY_MS) - 1);
    expect(await a.take(key, limits)).toMatchObject({ allowed: true, remaining: 2 });
    expect(await admin.hget(dayKey, 'n')).toBe('1');
  });

  it('tracks failed attempts across instances: exactly the limit of parallel attempts count', async () => {
    const [ta, tb] = [instance(), instance()].map((s) => s.failureTracker('auth', 30, 60_000));
    const ip = freshKey('203.0.113.7');
    const outcomes = await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 ? ta! : tb!).attempt(ip)));
    expect(count(outcomes, (o) => o === 'recorded')).toBe(30);
    expect(await ta!.blocked(ip)).toBe(true);
    expect(await tb!.blocked(ip)).toBe(true);

    // blocked() counts nothing; record() counts even past the limit.
    const other = freshKey('198.51.100.1');
    for (let i = 0; i < 10; i++) expect(await ta!.blocked(other)).toBe(false);
    for (let i = 0; i < 29; i++) await tb!.record(other);
    expect(await ta!.blocked(other)).toBe(false);
    await ta!.record(other);
    await ta!.record(other);
    expect(await tb!.blocked(other)).toBe(true);
    expect(await admin.llen(failureKeys(prefix, 'auth', other)[0])).toBe(31);

    // The tracker's own window (here 300 ms) frees it again; names keep purposes apart.
    const short = instance().failureTracker('login-email', 2, 300);
    const email = freshKey('someone@example.com');
    expect([await short.attempt(email), await short.attempt(email), await short.attempt(email)]).toEqual([
      'recorded',
      'recorded',
      'blocked',
    ]);
    expect(await ta!.blocked(email)).toBe(false);
    await sleep(350);
    expect(await short.attempt(email)).toBe('recorded');
  });

  it('gives every key it writes a TTL, and writes no key for an unlimited window', async () => {
    const a = instance();
    const key = freshKey('ttl');
    await a.take(key, { perMinute: 10, perDay: 100 });
    const [log, day] = rateLimitKeys(prefix, key);
    const now = await redisNowMs(admin);
    const logTtl = await admin.pttl(log);
    expect(logTtl).toBeGreaterThan(0);
    expect(logTtl).toBeLessThanOrEqual(60_000);
    const dayTtl = await admin.pttl(day);
    expect(dayTtl).toBeGreaterThan(0);
    expect(dayTtl).toBeLessThanOrEqual((Math.floor(now / DAY_MS) + 1) * DAY_MS - now + 1000);

    const onlyDay = freshKey('assistant');
    await a.take(onlyDay, { perMinute: Infinity, perDay: 100 });
    expect(await admin.exists(rateLimitKeys(prefix, onlyDay)[0])).toBe(0);
    const onlyMinute = freshKey('ip');
    await a.take(onlyMinute, { perMinute: 30, perDay: Infinity });
    expect(await admin.exists(rateLimitKeys(prefix, onlyMinute)[1])).toBe(0);

    await a.failureTracker('register-ip', 10, 3_600_000).record(freshKey('ip'));
    // Every key this file's stores wrote: none lives for ever.
    const keys = await admin.keys(`${prefix}*`);
    expect(keys.length).toBeGreaterThan(5);
    const ttls = await Promise.all(keys.map((k) => admin.pttl(k)));
    expect(keys.filter((_, i) => ttls[i]! <= 0)).toEqual([]);
  });
});

/** The real rate-limit middleware and error handler, over real HTTP, for one API key. */
async function limitedApp(store: LimitStore, credentialId = freshKey('key')): Promise<{ url: string; server: Server }> {
  const app = express();
  const principal = { credentialId, limits: { perMinute: 1000, perDay: 100_000 } } as unknown as Principal;
  app.use((_req, res, next) => {
    res.locals.principal = principal;
    next();
  });
  app.get('/v1/assistants', rateLimit(store), (_req, res) => {
    res.json({ status: 'success', data: [] });
  });
  app.post('/v1/integrations/:id/chat', rateLimit(store), (_req, res) => {
    res.json({ response: 'hi' });
  });
  app.use(errorHandler(silent));
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/v1/assistants`, server };
}

const closeServer = (s: Server) =>
  new Promise<void>((resolve) => {
    s.closeAllConnections();
    s.close(() => resolve());
  });

/** A logger that keeps its lines, to count outage messages. */
function capture() {
  const lines: { level: string; msg: string }[] = [];
  const logger = createLogger('debug', (l) => lines.push(JSON.parse(l) as { level: string; msg: string }));
  return {
    logger,
    down: () => count(lines, (l) => l.level === 'error' && /unreachable/.test(l.msg)),
    up: () => count(lines, (l) => /reachable again/.test(l.msg)),
  };
}

async function until(what: string, fn: () => Promise<boolean>, ms = 6000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await fn())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

describe('Redis down: limited requests fail closed with 503, and recover', () => {
  it('answers 503 unavailable with Retry-After while Redis cannot be reached, logs once per outage, recovers by itself', async () => {
    const relay = redisRelay(await closedPort());
    const log = capture();
    const store = instance({ url: relay.url, logger: log.logger });
    const { url, server } = await limitedApp(store);
    try {
      for (let i = 0; i < 5; i++) {
        const started = Date.now();
        const res = await fetch(url);
        expect(res.status).toBe(503);
        expect(res.headers.get('retry-after')).toBe('5');
        expect(res.headers.get('x-ratelimit-remaining')).toBeNull();
        expect(await res.json()).toEqual({ status: 'error', error: { code: 'unavailable', message: expect.any(String) } });
        expect(Date.now() - started).toBeLessThan(1500); // refused at once, not after a long wait
      }
      // The integrations chat answers its "form 1" body.
      const bare = await fetch(url.replace('/v1/assistants', '/v1/integrations/a1/chat'), { method: 'POST' });
      expect(bare.status).toBe(503);
      expect(await bare.json()).toEqual({ error: { code: 'UNAVAILABLE', message: expect.any(String) } });
      expect(log.down()).toBe(1);

      await relay.up();
      await until('recovery', async () => (await fetch(url)).status === 200);
      const ok = await fetch(url);
      expect(ok.headers.get('x-ratelimit-limit')).toBe('1000');
      expect(log.up()).toBe(1);

      await relay.down(); // a second outage: connections cut, port closed
      await until('the outage to show', async () => (await fetch(url)).status === 503);
      expect(log.down()).toBe(2);
      await relay.up();
      await until('second recovery', async () => (await fetch(url)).status === 200);
      expect(log.up()).toBe(2);
    } finally {
      await closeServer(server);
      await relay.down();
    }
  });

  it('a Redis that stops answering (connection open) gets 503 after the command timeout, not a hung request', async () => {
    const relay = redisRelay(await closedPort());
    await relay.up();
    const log = capture();
    const store = instance({ url: relay.url, logger: log.logger });
    const { url, server } = await limitedApp(store);
    try {
      expect((await fetch(url)).status).toBe(200);
      relay.stall();
      const started = Date.now();
      const res = await fetch(url);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      expect(Date.now() - started).toBeGreaterThanOrEqual(900); // the 1 s command timeout…
      expect(Date.now() - started).toBeLessThan(3000); // …not for ever
      expect(log.down()).toBe(1);
      relay.resume();
      await until('answers again', async () => (await fetch(url)).status === 200);
      expect(log.up()).toBe(1);
    } finally {
      await closeServer(server);
      await relay.down();
    }
  });

  it('a connection killed mid-request (CLIENT KILL) refuses that request with 503, never counts it twice, and reconnects', async () => {
    const log = capture();
    const store = instance({ logger: log.logger }) as LimitStore & { client: Redis };
    const credentialId = freshKey('key');
    const { url, server } = await limitedApp(store, credentialId);
    try {
      expect((await fetch(url)).status).toBe(200);
      const id = await store.client.client('ID');
      // Hold write scripts in Redis so the request is in flight when its connection dies (every
      // client's writes wait meanwhile: kept short, and lifted as soon as the kill is done).
      await admin.client('PAUSE', 2000, 'WRITE');
      let pending: Promise<Response>;
      try {
        pending = fetch(url);
        await until(
          'the request to wait in Redis',
          async () => {
            const line = String(await admin.client('LIST'))
              .split('\n')
              .find((l) => l.startsWith(`id=${id} `));
            return /\bcmd=evalsha\b/.test(line ?? '');
          },
          1500,
        );
        await admin.client('KILL', 'ID', String(id));
      } finally {
        await admin.client('UNPAUSE');
      }
      const killed = await pending;
      expect(killed.status).toBe(503);
      expect(await killed.json()).toMatchObject({ error: { code: 'unavailable' } });
      await until('reconnection', async () => (await fetch(url)).status === 200);
      expect(await store.client.client('ID')).not.toBe(id);
      expect(log.down()).toBe(1);
      expect(log.up()).toBe(1);
      // Counted: the request before the kill and the one that found the connection back. The
      // killed one never ran, and was not sent again after the reconnect.
      expect(await admin.llen(rateLimitKeys(prefix, credentialId)[0])).toBe(2);
    } finally {
      await closeServer(server);
    }
  });
});
