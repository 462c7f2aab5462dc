import { z } from 'zod';
import { analyticsFilterQuery as filterSchema } from '../../analytics/filters.js';
import { AUTH_ERRORS, AUTHENTICATED, defineRoutes, pageQuery } from '../registry.js';

const row = z
  .object({
    sessionId: z.string(),
    assistantId: z.string(),
    userId: z.string().nullable(),
    source: z.string().nullable(),
    startedAt: z.string(),
    lastMessageAt: z.string(),
    messageCount: z.int(),
    avgResponseMs: z.number().nullable(),
    rating: z.unknown(),
  })
  .loose();
const metrics = z
  .object({
    totalConversations: z.int(),
    totalMessages: z.int(),
    avgConversationLength: z.number(),
    avgResponseMs: z.number().nullable(),
    p95ResponseMs: z.number().nullable(),
    satisfaction: z.object({ up: z.int(), down: z.int(), rate: z.number().nullable() }),
    knowledgeBaseCoverage: z.number().nullable(),
    unansweredCount: z.int(),
  })
  .loose();
const gap = z
  .object({ question: z.string(), count: z.int(), lastAskedAt: z.string(), assistantId: z.string(), bestConfidence: z.number().nullable() })
  .loose();
const tag = 'Analytics';
const permission = 'analytics:read';
const errors = [400, ...AUTH_ERRORS, 404];

/** docs/api-spec.md §8: every analytics route takes the same conversation filters. */
export const analyticsRoutes = defineRoutes([
  {
    method: 'get',
    path: '/v1/analytics/conversations',
    tag,
    summary: 'Conversations matching the filters',
    auth: AUTHENTICATED,
    permission,
    query: filterSchema.extend(pageQuery.shape),
    success: { kind: 'paginated', status: 200, item: row },
    errors,
  },
  {
    method: 'get',
    path: '/v1/analytics/conversations/export',
    tag,
    summary: "Export the matching conversations' messages (streamed file)",
    auth: AUTHENTICATED,
    permission,
    query: filterSchema.extend({ format: z.enum(['csv', 'jsonl']).default('csv').optional() }),
    success: { kind: 'file', status: 200, contentTypes: ['text/csv; charset=utf-8', 'application/x-ndjson; charset=utf-8'] },
    errors,
  },
  {
    method: 'get',
    path: '/v1/analytics/metrics',
    tag,
    summary: 'Totals, response times, satisfaction and coverage',
    auth: AUTHENTICATED,
    permission,
    query: filterSchema,
    success: { kind: 'envelope', status: 200, data: metrics },
    errors,
  },
  {
    method: 'get',
    path: '/v1/analytics/knowledge-gaps',
    tag,
    summary: 'Unanswered questions, most frequent first',
    auth: AUTHENTICATED,
    permission,
    query: filterSchema.extend(pageQuery.shape),
    success: { kind: 'paginated', status: 200, item: gap },
    errors,
  },
]);
