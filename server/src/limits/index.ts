import type { LimitsConfig } from '../config.js';
import type { Clock } from '../lib/clock.js';
import type { Logger } from '../lib/logger.js';
import { createMemoryLimitStore } from './memory.js';
import type { LimitStore } from './port.js';
import { createRedisLimitStore } from './redis.js';

export type { FailureTracker, LimitStore, RateDecision, RateLimits } from './port.js';

/**
 * The limit store the configuration selects (config.limits; absent = memory, as in tests that
 * build their Config by hand). The memory store counts with `clock`; Redis counts on its own.
 */
export function createLimitStore(limits: LimitsConfig | undefined, deps: { clock: Clock; logger: Logger }): LimitStore {
  if (limits?.store === 'redis') return createRedisLimitStore({ url: limits.url, prefix: limits.prefix, logger: deps.logger });
  return createMemoryLimitStore(deps.clock);
}
