import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import type { AssistantStore } from '../assistants/service.js';
import { hasAuditEntries, listAudit } from '../audit/audit.js';
import type { ChatService } from '../chat/service.js';
import type { AppContext } from '../context.js';
import { nowIso } from '../context.js';
import { principalOf, requirePermission } from '../auth/middleware.js';
import { AppError, notFound } from '../http/errors.js';
import { readPage, sendData, sendPage } from '../http/pagination.js';
import { parseInput, pathParams } from '../http/validate.js';
import type { ChunkSearch } from '../knowledge/embeddings/hybrid.js';
import type { KnowledgeStore } from '../knowledge/store.js';
import { DEFAULT_CHANNELS } from './channel.js';
import { conversationDetail } from './conversation-detail.js';
import { createCorrection } from './corrections.js';
import { channelList, endOf, isoDateOrDateTime, readConversationFilter, startOf } from './filters.js';
import { dismissGap, gapDetail, listKnowledgeGaps, resolveGap } from './gaps.js';
import { listHandoffs } from './handoffs.js';
import { createExportLink, exportLinkSchema, sendExport } from './export-links.js';
import { computeMetricsWithPrevious, listConversations } from './service.js';
import { sourceUse } from './sources.js';
import { bucketCount, computeTimeseries, MAX_BUCKETS, METRICS } from './timeseries.js';

const DAY_MS = 86_400_000;

export const timeseriesQuery = z.object({
  metric: z.enum(METRICS),
  interval: z.enum(['hour', 'day']).default('day'),
  from: isoDateOrDateTime.optional(),
  to: isoDateOrDateTime.optional(),
  assistantId: z.string().min(1).max(64).optional(),
  channel: channelList.optional(),
});

export const auditQuery = z.object({
  assistantId: z.string().min(1).max(64).optional(),
  from: isoDateOrDateTime.optional(),
  to: isoDateOrDateTime.optional(),
});
export const gapListQuery = z.object({ status: z.enum(['open', 'resolved', 'dismissed', 'all']).default('open') });

export const correctionSchema = z.strictObject({
  sessionId: z.string().min(1).max(128),
  messageId: z.string().min(1).max(64),
  answer: z.string().trim().min(1).max(20_000),
  asTemplate: z.strictObject({ match: z.enum(['exact', 'contains']) }).optional(),
  asSnippet: z.strictObject({ knowledgeBaseId: z.string().min(1).max(64) }).optional(),
});
export const resolveGapSchema = z.strictObject({
  answer: z.string().trim().min(1).max(20_000),
  as: z.enum(['template', 'snippet']),
  knowledgeBaseId: z.string().min(1).max(64).optional(),
  match: z.enum(['exact', 'contains']).optional(),
});
export const dismissGapSchema = z.strictObject({ reason: z.string().trim().min(1).max(500) });

export interface AnalyticsDeps {
  chat: ChatService;
  assistants: AssistantStore;
  knowledge: KnowledgeStore;
  retriever: ChunkSearch;
}

/** from/to of a query as milliseconds: a date-only `to` is the whole day; `to` defaults to now. */
function readRange(
  q: { from?: string | undefined; to?: string | undefined },
  nowMs: number,
  defaultSpanMs: number,
): { from: number; to: number } {
  const to = q.to ? Date.parse(endOf(q.to)) : nowMs;
  const from = q.from ? Date.parse(startOf(q.from)) : to - defaultSpanMs;
  if (from > to) throw new AppError('validation_error', 'from must not be after to');
  return { from, to };
}

function boundAssistant(res: Response, assistantId: string | undefined): string | null {
  const p = principalOf(res);
  if (p.assistantId && assistantId && assistantId !== p.assistantId) throw notFound('Assistant');
  return p.assistantId ?? assistantId ?? null;
}

export { csvCell } from './export-links.js';

export function analyticsRouter(ctx: AppContext, deps: AnalyticsDeps): Router {
  const r = Router();
  r.use('/analytics', requirePermission('analytics:read'));

  r.get('/analytics/conversations', async (req, res) => {
    const page = readPage(req);
    const { items, total } = await listConversations(ctx.storage, readConversationFilter(req, res), page);
    sendPage(res, items, total, page);
  });

  r.get('/analytics/conversations/export', async (req, res) => {
    const format = req.query.format ?? 'csv';
    if (format !== 'csv' && format !== 'jsonl') throw new AppError('validation_error', 'format must be csv or jsonl');
    await sendExport(res, ctx.storage, readConversationFilter(req, res), format, ctx.clock.now());
  });

  // A one-time link the browser can follow without the cookie or CSRF header (GET /v1/exports/:token).
  r.post('/analytics/conversations/export-links', async (req, res) => {
    sendData(res, await createExportLink(ctx, principalOf(res), parseInput(exportLinkSchema, req.body)), 201);
  });

  r.get('/analytics/metrics', async (req, res) => {
    sendData(res, await computeMetricsWithPrevious(ctx.storage, readConversationFilter(req, res), ctx.clock.now()));
  });

  r.get('/analytics/timeseries', async (req, res) => {
    const { page: _p, limit: _l, ...query } = req.query as Record<string, unknown>;
    const q = parseInput(timeseriesQuery, query, 'query');
    const { from, to } = readRange(q, ctx.clock.now(), q.interval === 'hour' ? 7 * DAY_MS : 30 * DAY_MS);
    const buckets = bucketCount(from, to, q.interval);
    if (buckets > MAX_BUCKETS)
      throw new AppError(
        'validation_error',
        `from..to spans ${buckets} ${q.interval} buckets; at most ${MAX_BUCKETS}: use interval=day or a shorter range`,
      );
    sendData(
      res,
      await computeTimeseries(ctx.storage, {
        org: principalOf(res).organizationId,
        assistantId: boundAssistant(res, q.assistantId),
        channels: JSON.stringify(q.channel ?? DEFAULT_CHANNELS),
        from,
        to,
        interval: q.interval,
        metric: q.metric,
      }),
    );
  });

  r.get('/analytics/sources', async (req, res) => {
    sendData(res, await sourceUse(ctx.storage, readConversationFilter(req, res)));
  });

  r.get('/analytics/knowledge-gaps', async (req, res) => {
    const page = readPage(req);
    const { status } = parseInput(gapListQuery, { status: req.query.status }, 'query');
    const { items, total } = await listKnowledgeGaps(ctx.storage, { ...readConversationFilter(req, res), status }, page);
    sendPage(res, items, total, page);
  });

  r.get('/analytics/knowledge-gaps/:id', async (req, res) => {
    const { id } = pathParams(req, 'id');
    sendData(res, await gapDetail(ctx.storage, { assistants: deps.assistants, retriever: deps.retriever }, principalOf(res), id));
  });

  r.post('/analytics/knowledge-gaps/:id/resolve', requirePermission(['assistants:write', 'knowledge_bases:write']), async (req, res) => {
    const { id } = pathParams(req, 'id');
    const input = parseInput(resolveGapSchema, req.body);
    sendData(res, await resolveGap({ ctx, ...deps }, principalOf(res), id, input, nowIso(ctx)));
  });

  r.post('/analytics/knowledge-gaps/:id/dismiss', requirePermission(['assistants:write', 'knowledge_bases:write']), async (req, res) => {
    const { id } = pathParams(req, 'id');
    const input = parseInput(dismissGapSchema, req.body);
    sendData(res, await dismissGap(ctx.storage, principalOf(res), id, input.reason, nowIso(ctx)));
  });

  // Conversations for the dashboard (org-scoped; bound keys see their assistant's only).
  r.get('/conversations/:sessionId', requirePermission('conversations:read'), async (req, res) => {
    const { sessionId } = pathParams(req, 'sessionId');
    sendData(
      res,
      await conversationDetail(
        ctx.storage,
        principalOf(res),
        sessionId,
        async (id) => (await deps.assistants.get(principalOf(res).organizationId, id))?.confidenceThreshold ?? null,
      ),
    );
  });

  /** The "needs a human" queue: asked for a human, still open, no agent reply since; the oldest request first. */
  r.get('/handoffs', requirePermission('conversations:read'), async (req, res) => {
    const page = readPage(req);
    const filter = readConversationFilter(req, res);
    const { items, total } = await listHandoffs(ctx.storage, filter, page);
    sendPage(res, items, total, page);
  });

  r.get('/handoffs/count', requirePermission('conversations:read'), async (req, res) => {
    const filter = readConversationFilter(req, res);
    sendData(res, { pending: (await listConversations(ctx.storage, { ...filter, handoff: 'pending' }, { limit: 1, offset: 0 })).total });
  });

  r.post('/corrections', requirePermission(['assistants:write', 'knowledge_bases:write']), async (req, res) => {
    const input = parseInput(correctionSchema, req.body);
    sendData(
      res,
      await createCorrection({ ctx, assistants: deps.assistants, knowledge: deps.knowledge }, principalOf(res), input, nowIso(ctx)),
      201,
    );
  });

  // The audit log of assistant changes (markers on the analytics charts).
  const sendAudit = async (req: Request, res: Response, assistantId: string | null) => {
    const { page: _p, limit: _l, ...query } = req.query as Record<string, unknown>;
    const q = parseInput(auditQuery, query, 'query');
    const page = readPage(req);
    const from = q.from ? startOf(q.from) : null;
    const to = q.to ? endOf(q.to) : null;
    if (from && to && from > to) throw new AppError('validation_error', 'from must not be after to');
    const { items, total } = await listAudit(
      ctx.storage,
      { org: principalOf(res).organizationId, assistantId: boundAssistant(res, assistantId ?? q.assistantId), from, to },
      page,
    );
    sendPage(res, items, total, page);
  };
  r.get('/assistants/:id/audit', requirePermission('assistants:read'), async (req, res) => {
    // A deleted assistant keeps its log; an id the organization never had is a 404.
    const { id } = pathParams(req, 'id');
    const org = principalOf(res).organizationId;
    if (!(await deps.assistants.get(org, id)) && !(await hasAuditEntries(ctx.storage, org, id))) throw notFound('Assistant');
    await sendAudit(req, res, id);
  });
  r.get('/audit', requirePermission('assistants:read'), (req, res) => sendAudit(req, res, null));

  return r;
}
