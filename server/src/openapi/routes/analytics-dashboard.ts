import { z } from 'zod';
import { analyticsFilterQuery } from '../../analytics/filters.js';
import { auditQuery, correctionSchema, dismissGapSchema, resolveGapSchema, timeseriesQuery } from '../../analytics/routes.js';
import { AUTH_ERRORS, AUTHENTICATED, defineRoutes, ID_ERRORS, pageQuery, pathParams } from '../registry.js';

/* Dashboard II (issue 13): time series, source use, gap loop, conversation detail, handoff queue, corrections, audit log. */

const point = z.object({
  t: z.string().describe('ISO start of the UTC hour or day'),
  value: z.number().nullable().describe('0 for empty count buckets, null for empty ratio/percentile buckets'),
});
const doc = z.object({ id: z.string(), knowledgeBaseId: z.string(), title: z.string(), url: z.string().nullable() });
const causeEnum = z.enum(['no_passages', 'low_confidence', 'declined', 'rated_down']);
const gap = z
  .object({
    id: z.string(),
    question: z.string(),
    count: z.int(),
    lastAskedAt: z.string(),
    firstAskedAt: z.string(),
    assistantId: z.string(),
    bestConfidence: z.number(),
    cause: causeEnum,
    status: z.enum(['open', 'resolved', 'dismissed']),
    statusReason: z.string().nullable(),
    statusAt: z.string().nullable(),
  })
  .loose();
const gapDetail = gap.extend({
  resolution: z.unknown(),
  questions: z.array(
    z.object({
      question: z.string(),
      cause: causeEnum,
      confidence: z.number().nullable(),
      askedAt: z.string(),
      messageId: z.string().nullable(),
      sessionId: z.string().nullable(),
      response: z.string().nullable(),
    }),
  ),
  passages: z.array(
    z.object({
      chunkId: z.int(),
      documentId: z.string(),
      title: z.string(),
      url: z.string().nullable(),
      heading: z.string().nullable(),
      text: z.string(),
      score: z.number(),
    }),
  ),
});
const replay = z.object({ question: z.string(), response: z.string().nullable(), confidence: z.number().nullable() });
const resolved = z.object({
  id: z.string(),
  status: z.literal('resolved'),
  as: z.enum(['template', 'snippet']),
  templateIds: z.array(z.string()).optional(),
  knowledgeBaseId: z.string().optional(),
  documentId: z.string().optional(),
  before: z.array(replay),
  after: z.array(replay.extend({ fallback: z.boolean() })),
});
const summary = z.object({
  sessionId: z.string(),
  assistantId: z.string(),
  userId: z.string().nullable(),
  source: z.string().nullable(),
  startedAt: z.string(),
  lastMessageAt: z.string(),
  messageCount: z.int(),
  avgResponseMs: z.number().nullable(),
  rating: z.enum(['up', 'down']).nullable(),
  channel: z.enum(['widget', 'api', 'discord', 'slack', 'teams', 'playground']),
  fellBack: z.boolean(),
  handoffRequested: z.boolean(),
  status: z.enum(['active', 'ended']),
  firstQuestion: z.string().nullable().describe("the visitor's first message, its first 160 characters (null before any)"),
});
const handoffItem = summary.extend({
  handoffRequestedAt: z.string().describe('when the user asked for a human (the queue order)'),
  handoff: z
    .object({ email: z.string().nullable(), note: z.string().nullable() })
    .describe('what the user left with the request (widget handoff form); null when left empty'),
});
const detail = z.object({
  sessionId: z.string(),
  assistantId: z.string(),
  channel: z.string(),
  userId: z.string().nullable(),
  source: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()),
  status: z.enum(['active', 'ended']),
  startedAt: z.string(),
  lastMessageAt: z.string(),
  endedAt: z.string().nullable(),
  handoffRequestedAt: z.string().nullable(),
  threshold: z.number().nullable().describe("the assistant's confidence threshold"),
  messages: z.array(
    z.object({
      id: z.string(),
      role: z.enum(['user', 'assistant', 'human_agent']),
      content: z.string(),
      timestamp: z.string(),
      metadata: z.record(z.string(), z.unknown()).nullable(),
      confidence: z.number().nullable().optional(),
      fellBack: z.boolean().optional(),
      templateId: z.string().nullable().optional(),
      responseMs: z.number().nullable().optional(),
      rating: z.enum(['up', 'down']).nullable().optional(),
      ratingComment: z.string().nullable().optional(),
      sources: z
        .array(
          z
            .object({ title: z.string(), url: z.string().nullable(), text: z.string(), score: z.number(), chunkId: z.int().optional() })
            .loose(),
        )
        .optional(),
    }),
  ),
  corrections: z.array(
    z
      .object({
        id: z.string(),
        messageId: z.string(),
        question: z.string(),
        answer: z.string(),
        templateId: z.string().nullable(),
        documentId: z.string().nullable(),
      })
      .loose(),
  ),
});
const correction = z.object({
  id: z.string(),
  assistantId: z.string(),
  sessionId: z.string(),
  messageId: z.string(),
  question: z.string(),
  answer: z.string(),
  templateId: z.string().nullable(),
  knowledgeBaseId: z.string().nullable(),
  documentId: z.string().nullable(),
  createdAt: z.string(),
});
const auditEntry = z.object({
  id: z.string(),
  assistantId: z.string(),
  userId: z.string().nullable(),
  userEmail: z.string().nullable(),
  apiKeyId: z.string().nullable(),
  action: z.enum(['created', 'updated', 'deleted']),
  fields: z.array(z.string()).describe('top-level configuration keys that changed'),
  createdAt: z.string(),
});

const tag = 'Analytics';
const errors = [400, ...AUTH_ERRORS, 404];

export const analyticsDashboardRoutes = defineRoutes([
  {
    method: 'get',
    path: '/v1/analytics/timeseries',
    tag,
    summary: 'One metric over time, per hour or day',
    auth: AUTHENTICATED,
    permission: 'analytics:read',
    description:
      'Buckets are whole UTC hours or days (`from` rounds down; default range: 30 days by day, 7 days by hour, ending now), empty ones 0 (null for ratios and percentiles), in time order; at most 2,200 buckets (400 beyond). `channel` is a comma list of widget, api, discord, slack, teams, playground (default: all but playground). Read from per-hour rollups kept in the write transaction; response-time percentiles come from a log histogram (buckets ×1.1) and are within ±5 %.',
    query: timeseriesQuery,
    success: { kind: 'envelope', status: 200, data: z.array(point) },
    errors,
  },
  {
    method: 'get',
    path: '/v1/analytics/sources',
    tag,
    summary: 'Source use: never cited, most cited, cited in answers rated down',
    auth: AUTHENTICATED,
    permission: 'analytics:read',
    query: analyticsFilterQuery,
    success: {
      kind: 'envelope',
      status: 200,
      data: z.object({
        neverRetrieved: z.array(doc),
        mostCited: z.array(z.object({ doc, count: z.int() })),
        citedInDownrated: z.array(z.object({ doc, count: z.int() })),
      }),
    },
    errors,
  },
  {
    method: 'get',
    path: '/v1/analytics/knowledge-gaps/{id}',
    tag,
    summary: 'A knowledge gap with its questions and the closest passages now',
    auth: AUTHENTICATED,
    permission: 'analytics:read',
    params: pathParams('id'),
    success: { kind: 'envelope', status: 200, data: gapDetail },
    errors: [...AUTH_ERRORS, ...ID_ERRORS],
  },
  {
    method: 'post',
    path: '/v1/analytics/knowledge-gaps/{id}/resolve',
    tag,
    summary: 'Answer a gap (template or snippet) and replay its questions',
    auth: AUTHENTICATED,
    permission: ['assistants:write', 'knowledge_bases:write'],
    params: pathParams('id'),
    body: resolveGapSchema,
    description:
      'Stores the answer as exact templates for each distinct wording (needs assistants:write) or as a snippet document (needs knowledge_bases:write), then replays up to 20 wordings through the real answer path without writing conversations. The gap becomes resolved and leaves the list.',
    example: { answer: 'We sell e-gift cards from 10 to 200 euros.', as: 'template' },
    success: { kind: 'envelope', status: 200, data: resolved },
    errors: [400, ...AUTH_ERRORS, ...ID_ERRORS, 409, 413],
  },
  {
    method: 'post',
    path: '/v1/analytics/knowledge-gaps/{id}/dismiss',
    tag,
    summary: 'Hide a gap with a reason',
    auth: AUTHENTICATED,
    permission: ['assistants:write', 'knowledge_bases:write'],
    params: pathParams('id'),
    body: dismissGapSchema,
    example: { reason: 'Off topic' },
    success: { kind: 'envelope', status: 200, data: gap },
    errors: [400, ...AUTH_ERRORS, ...ID_ERRORS, 409, 413],
  },
  {
    method: 'get',
    path: '/v1/conversations/{sessionId}',
    tag: 'Conversations',
    summary: 'A conversation for the dashboard: every turn with sources, confidence, rating',
    auth: AUTHENTICATED,
    permission: 'conversations:read',
    params: pathParams('sessionId'),
    success: { kind: 'envelope', status: 200, data: detail },
    errors: [...AUTH_ERRORS, ...ID_ERRORS],
  },
  {
    method: 'get',
    path: '/v1/handoffs',
    tag: 'Conversations',
    summary: 'The "needs a human" queue, the longest waiting first',
    auth: AUTHENTICATED,
    permission: 'conversations:read',
    description:
      'Conversations whose user asked for a human, still active, with no human-agent reply since the request, ordered by when the user asked (handoffRequestedAt, oldest first). Each item carries what the user left with the request (the widget form: email, note). Takes the analytics filters.',
    query: analyticsFilterQuery.omit({ handoff: true, sort: true, order: true }).extend(pageQuery.shape),
    success: { kind: 'paginated', status: 200, item: handoffItem },
    errors,
  },
  {
    method: 'get',
    path: '/v1/handoffs/count',
    tag: 'Conversations',
    summary: 'How many conversations wait for a human',
    auth: AUTHENTICATED,
    permission: 'conversations:read',
    query: analyticsFilterQuery.omit({ handoff: true, sort: true, order: true }),
    success: { kind: 'envelope', status: 200, data: z.object({ pending: z.int() }) },
    errors,
  },
  {
    method: 'post',
    path: '/v1/corrections',
    tag,
    summary: 'Correct an answer: save it as a template and/or a knowledge snippet',
    auth: AUTHENTICATED,
    permission: ['assistants:write', 'knowledge_bases:write'],
    body: correctionSchema,
    description:
      'The template is triggered by the question before the corrected message (exact or contains; needs assistants:write); the snippet is a document in the given knowledge base (needs knowledge_bases:write). The correction is linked to the conversation and shows in its detail.',
    example: {
      sessionId: 'sess_1',
      messageId: 'msg_1',
      answer: 'We sell e-gift cards from 10 to 200 euros.',
      asTemplate: { match: 'exact' },
    },
    success: { kind: 'envelope', status: 201, data: correction },
    errors: [400, ...AUTH_ERRORS, ...ID_ERRORS, 413],
  },
  {
    method: 'get',
    path: '/v1/assistants/{id}/audit',
    tag: 'Assistants',
    summary: "An assistant's change log, newest first",
    auth: AUTHENTICATED,
    permission: 'assistants:read',
    params: pathParams('id'),
    query: auditQuery.omit({ assistantId: true }).extend(pageQuery.shape),
    success: { kind: 'paginated', status: 200, item: auditEntry },
    errors,
  },
  {
    method: 'get',
    path: '/v1/audit',
    tag: 'Assistants',
    summary: 'Assistant changes across the organization, newest first',
    auth: AUTHENTICATED,
    permission: 'assistants:read',
    query: auditQuery.extend(pageQuery.shape),
    success: { kind: 'paginated', status: 200, item: auditEntry },
    errors,
  },
]);
