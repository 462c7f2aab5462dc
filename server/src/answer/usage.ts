import type { AnswerUsage } from './providers/types.js';

/** What one answer cost: stored on its message row (migration 002) for analytics. */
export interface UsageRecord {
  provider: string;
  model: string | null;
  usage: AnswerUsage | null;
  providerMs: number | null;
}
