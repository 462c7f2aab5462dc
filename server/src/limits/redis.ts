import { Redis } from 'ioredis';
import { AppError } from '../http/errors.js';
import type { Logger } from '../lib/logger.js';
import { backoffDelay } from '../net/backoff.js';
import { MINUTE_MS, rateDecision } from './decision.js';
import type { FailureTracker, LimitStore, RateDecision, RateLimits } from './port.js';

/**
 * One check-and-count, atomic (Redis runs a script alone), on Redis's clock so that instances
 * with drifting clocks still share one window.
 *
 * KEYS[1] sliding log: LIST of admission times (ms), oldest first; expires one window after
 *         its newest entry, when it would be empty anyway.
 * KEYS[2] day counter: HASH {d = UTC day number, n = admissions}; expires at the next UTC midnight.
 * ARGV    mode ('take' | 'peek' | 'push'), window ms, limit per window, limit per day
 *         (-1 = no limit: that key is neither read nor written).
 * take: admit when both windows have room, and then count. peek: count nothing (a tracker's
 * `blocked`). push: count unconditionally (a tracker's `record`).
 * Returns {admitted 0/1, now ms, entries in the window, oldest entry ms, day count}: the same
 * state the memory store reads, so limits/decision.ts computes the headers for both.
 * An entry leaves the window when it is <= now - window, exactly as in memory.ts. (A Redis clock
 * stepped back only keeps entries longer: stricter, never looser.)
 */
export const LIMIT_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local mode = ARGV[1]
local win = tonumber(ARGV[2])
local perWin = tonumber(ARGV[3])
local perDay = tonumber(ARGV[4])
local count, oldest, dayCount = 0, now, 0
local day = math.floor(now / 86400000)
if perWin >= 0 then
  while true do
    local first = redis.call('LINDEX', KEYS[1], 0)
    if not first then break end
    first = tonumber(first)
    if first > now - win then oldest = first break end
    redis.call('LPOP', KEYS[1])
  end
  count = redis.call('LLEN', KEYS[1])
end
if perDay >= 0 then
  local v = redis.call('HMGET', KEYS[2], 'd', 'n')
  if v[1] and tonumber(v[1]) == day then dayCount = tonumber(v[2]) end
end
local admitted = mode == 'push' or ((perWin < 0 or count < perWin) and (perDay < 0 or dayCount < perDay))
if admitted and mode ~= 'peek' then
  if perWin >= 0 then
    redis.call('RPUSH', KEYS[1], now)
    redis.call('PEXPIRE', KEYS[1], win)
    if count == 0 then oldest = now end
    count = count + 1
  end
  if perDay >= 0 then
    dayCount = dayCount + 1
    redis.call('HSET', KEYS[2], 'd', day, 'n', dayCount)
    redis.call('PEXPIREAT', KEYS[2], (day + 1) * 86400000)
  end
end
return {admitted and 1 or 0, now, count, oldest, dayCount}
`;

type Mode = 'take' | 'peek' | 'push';
type ScriptReply = [number, number, number, number, number];

interface LimitCommands {
  parleyLimit(log: string, day: string, mode: Mode, windowMs: number, perWindow: number, perDay: number): Promise<ScriptReply>;
}

/** What a client refused by the store waits before trying again (seconds). */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

export interface RedisLimitStoreOptions {
  url: string;
  /** Prepended to every key (default `parley:`): several deployments can share one Redis. */
  prefix?: string;
  logger: Logger;
  /** Longest wait for one answer before the request is refused with 503 (default 1 s). */
  commandTimeoutMs?: number;
}

const unlimited = (n: number): number => (n === Infinity ? -1 : n);

/**
 * The keys of one rate-limited key: its sliding log and its day counter. One hash tag, so both
 * live in one slot should this ever run on Redis Cluster.
 */
export function rateLimitKeys(prefix: string, key: string): [log: string, day: string] {
  const base = `${prefix}rl:{${key}}`;
  return [`${base}:m`, `${base}:d`];
}

/** The keys of one failure tracker's key (the day key stays unused). */
export function failureKeys(prefix: string, name: string, key: string): [log: string, day: string] {
  const base = `${prefix}fail:{${name}:${key}}`;
  return [base, `${base}:d`];
}

/**
 * Limits shared by every instance, in Redis. Each check is ONE script call (EVALSHA, loaded once
 * per connection by ioredis). Redis down: every limited request answers 503 `unavailable` with
 * Retry-After (fail closed: no instance may admit what the others cannot count); the outage is
 * logged once, the client reconnects by itself, and the first answer after it ends the outage.
 */
export function createRedisLimitStore(opts: RedisLimitStoreOptions): LimitStore & { client: Redis } {
  const prefix = opts.prefix ?? 'parley:';
  const client = new Redis(opts.url, {
    // A command sent while the connection is down waits for the reconnect, but no longer than
    // commandTimeout; one in flight when the connection drops is refused, never sent twice
    // (it may already have counted).
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    commandTimeout: opts.commandTimeoutMs ?? 1000,
    connectTimeout: 2000,
    // Reconnect for ever, backing off (net/backoff.ts, full jitter: instances that lost Redis
    // together do not reconnect in step) up to 2 s between attempts. `times` is 1 at the first.
    retryStrategy: (times) => backoffDelay(times - 1, { baseMs: 100, maxMs: 2_000 }),
  });
  client.defineCommand('parleyLimit', { numberOfKeys: 2, lua: LIMIT_SCRIPT });
  const commands = client as unknown as LimitCommands;

  // One log line per outage, not per request: `down` flips at the first failure and back at
  // the next success (or reconnect).
  let down = false;
  let closing = false;
  const failed = (err: unknown): void => {
    if (down || closing) return;
    down = true;
    opts.logger.error('rate-limit store unreachable: limited requests answer 503 until it is back', {
      store: 'redis',
      error: err instanceof Error ? err.message : String(err),
    });
  };
  const recovered = (): void => {
    if (!down) return;
    down = false;
    opts.logger.info('rate-limit store reachable again', { store: 'redis' });
  };
  client.on('error', failed);
  client.on('ready', recovered);

  const unavailable = (): AppError =>
    new AppError('unavailable', 'Rate limits cannot be checked right now, try again shortly', {
      'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS),
    });

  async function run(log: string, day: string, mode: Mode, windowMs: number, perWindow: number, perDay: number): Promise<ScriptReply> {
    // During a known outage, refuse at once instead of queueing until commandTimeout.
    if (down && client.status !== 'ready') throw unavailable();
    try {
      const reply = await commands.parleyLimit(log, day, mode, windowMs, perWindow, perDay);
      recovered();
      return reply;
    } catch (err) {
      failed(err);
      throw unavailable();
    }
  }

  async function take(key: string, limits: RateLimits): Promise<RateDecision> {
    const [log, day] = rateLimitKeys(prefix, key);
    const [admitted, now, minuteCount, oldestMs, dayCount] = await run(
      log,
      day,
      'take',
      MINUTE_MS,
      unlimited(limits.perMinute),
      unlimited(limits.perDay),
    );
    return rateDecision(limits, { now, allowed: admitted === 1, minuteCount, oldestMs, dayCount });
  }

  function failureTracker(name: string, limit: number, windowMs: number): FailureTracker {
    // The day key is never touched (perDay -1); it is named only because the script takes two.
    const step = (key: string, mode: Mode) => run(...failureKeys(prefix, name, key), mode, windowMs, limit, -1);
    return {
      blocked: async (key) => (await step(key, 'peek'))[0] === 0,
      record: async (key) => {
        await step(key, 'push');
      },
      attempt: async (key) => ((await step(key, 'take'))[0] === 1 ? 'recorded' : 'blocked'),
    };
  }

  return {
    client,
    take,
    failureTracker,
    sweep() {
      /* keys expire in Redis */
    },
    close() {
      // Called after the HTTP server has drained: nothing is waiting on an answer any more.
      closing = true;
      client.disconnect();
      return Promise.resolve();
    },
  };
}
