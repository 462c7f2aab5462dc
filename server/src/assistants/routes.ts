import { Router, type Response } from 'express';
import { changedFields, recordAssistantChange } from '../audit/audit.js';
import type { AppContext } from '../context.js';
import { nowIso } from '../context.js';
import { principalOf, requirePermission } from '../auth/middleware.js';
import { AppError, notFound } from '../http/errors.js';
import { readPage, sendData, sendPage } from '../http/pagination.js';
import { parseInput, pathParams } from '../http/validate.js';
import { deepMerge, isPlainObject } from '../lib/json.js';
import { reviewAssistantConfig, reviewModelBaseUrl } from './review.js';
import { assistantConfigSchema, createAssistantSchema } from './schemas.js';
import { configOf, type Assistant, type AssistantStore } from './service.js';
import { withStats } from './stats.js';

/** Loads an assistant the caller may see: other organizations' ids and, for bound keys, other assistants' ids are 404. */
export async function visibleAssistant(store: AssistantStore, res: Response, id: string): Promise<Assistant> {
  const p = principalOf(res);
  if (p.assistantId && p.assistantId !== id) throw notFound('Assistant');
  const a = await store.get(p.organizationId, id);
  if (!a) throw notFound('Assistant');
  return a;
}

/** visibleAssistant for chat: from the store's short cache (service.ts, ASSISTANT_CACHE_TTL_MS); frozen. */
export async function recentVisibleAssistant(store: AssistantStore, res: Response, id: string): Promise<Assistant> {
  const p = principalOf(res);
  if (p.assistantId && p.assistantId !== id) throw notFound('Assistant');
  const a = await store.recent(p.organizationId, id);
  if (!a) throw notFound('Assistant');
  return a;
}

/** Mounted at /assistants, /apps and /integrations: one resource, three names (docs/api-spec.md §6). */
export function assistantsRouter(ctx: AppContext, store: AssistantStore): Router {
  const r = Router();

  r.post('/', requirePermission('assistants:write'), async (req, res) => {
    const p = principalOf(res);
    if (p.assistantId) throw new AppError('permission_denied', 'A key bound to one assistant cannot create assistants');
    const { type, ...config } = parseInput(createAssistantSchema, req.body);
    const warnings = [
      ...reviewAssistantConfig(ctx.providers, config, { modelChanged: true }),
      ...(await reviewModelBaseUrl(ctx.providers, config, { modelChanged: true })),
    ];
    // The audit entry commits with the assistant (audit/audit.ts).
    const created = await ctx.storage.tx(async (tx) => {
      const a = await store.create(p.organizationId, type, config, nowIso(ctx), tx);
      await recordAssistantChange(tx, {
        principal: p,
        assistantId: a.id,
        action: 'created',
        fields: Object.keys(configOf(a)).sort(),
        at: a.createdAt,
      });
      return a;
    });
    sendData(res, { ...created, warnings }, 201);
  });

  r.get('/', requirePermission('assistants:read'), async (req, res) => {
    const p = principalOf(res);
    const page = readPage(req);
    const { items, total } = await store.list(p.organizationId, p.assistantId, page);
    sendPage(res, await withStats(ctx.storage, p.organizationId, items, ctx.clock.now()), total, page);
  });

  r.get('/:id', requirePermission('assistants:read'), async (req, res) => {
    const { id } = pathParams(req, 'id');
    sendData(res, await visibleAssistant(store, res, id));
  });

  r.patch('/:id', requirePermission('assistants:write'), async (req, res) => {
    const { id } = pathParams(req, 'id');
    const current = await visibleAssistant(store, res, id);
    if (!isPlainObject(req.body)) throw new AppError('validation_error', 'Request body must be a JSON object');
    const { type, id: _id, organizationId: _org, createdAt: _c, updatedAt: _u, ...patch } = req.body;
    if (type !== undefined && type !== current.type) throw new AppError('validation_error', 'type is chosen at creation and cannot change');
    const merged = parseInput(assistantConfigSchema, deepMerge(configOf(current), patch));
    const modelChanged = patch.model !== undefined;
    const warnings = [
      ...reviewAssistantConfig(ctx.providers, merged, { modelChanged }),
      ...(await reviewModelBaseUrl(ctx.providers, merged, { modelChanged })),
    ];
    // app.deployment.updated (widget, bots, model changed) commits with the change.
    const updated = await ctx.storage.tx(async (tx) => {
      const next = await store.replace(current.organizationId, current.id, merged, nowIso(ctx), tx);
      await ctx.webhooks.deploymentUpdated(tx, current, next);
      await recordAssistantChange(tx, {
        principal: principalOf(res),
        assistantId: current.id,
        action: 'updated',
        fields: changedFields(configOf(current), configOf(next)),
        at: next.updatedAt,
      });
      return next;
    });
    store.forgetOrganization(current.organizationId); // chat sees the change at once here; other instances within the cache TTL
    sendData(res, { ...updated, warnings });
  });

  r.delete('/:id', requirePermission('assistants:write'), async (req, res) => {
    const { id } = pathParams(req, 'id');
    const current = await visibleAssistant(store, res, id);
    await ctx.storage.tx(async (tx) => {
      await store.remove(current.organizationId, current.id, tx);
      await recordAssistantChange(tx, {
        principal: principalOf(res),
        assistantId: current.id,
        action: 'deleted',
        fields: [],
        at: nowIso(ctx),
      });
    });
    store.forgetOrganization(current.organizationId); // its chats 404 at once here; other instances within the cache TTL
    sendData(res, { id: current.id, deleted: true });
  });

  return r;
}
