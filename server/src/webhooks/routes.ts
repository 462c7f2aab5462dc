import { Router, type Response } from 'express';
import { z } from 'zod';
import { creatorOf } from '../api-keys/service.js';
import { assistantExists } from '../assistants/service.js';
import type { AppContext } from '../context.js';
import { nowIso } from '../context.js';
import { principalOf, requirePermission } from '../auth/middleware.js';
import { AppError, notFound } from '../http/errors.js';
import { readPage, sendData, sendPage } from '../http/pagination.js';
import { parseInput, pathParams } from '../http/validate.js';
import { WEBHOOK_EVENTS } from './fan-out.js';
import { webhookUrlProblem } from './ssrf.js';
import { MAX_ENDPOINTS_PER_ORG, type WebhookEndpoint, type WebhookStore } from './store.js';

const eventsField = z
  .array(z.enum(['*', ...WEBHOOK_EVENTS], { error: `must be "*" or one of ${WEBHOOK_EVENTS.join(', ')}` }))
  .min(1)
  .max(WEBHOOK_EVENTS.length + 1)
  .transform((list) => (list.includes('*') ? ['*'] : [...new Set(list)]));

/** The create and patch bodies; URLs are checked against private addresses unless the operator allows them. */
export function webhookSchemas(allowPrivate: boolean) {
  const urlField = z
    .string()
    .trim()
    .max(2048)
    .superRefine((url, c) => {
      const problem = webhookUrlProblem(url, allowPrivate);
      if (problem) c.addIssue({ code: 'custom', message: problem });
    });
  const createSchema = z.strictObject({
    url: urlField,
    events: eventsField,
    assistantId: z.string().min(1).max(64).nullish(),
    description: z.string().max(500).nullish(),
  });
  const patchSchema = z.strictObject({
    url: urlField.optional(),
    events: eventsField.optional(),
    assistantId: z.string().min(1).max(64).nullable().optional(),
    description: z.string().max(500).nullable().optional(),
    enabled: z.boolean().optional(),
  });
  return { createSchema, patchSchema };
}

export function webhooksRouter(ctx: AppContext, store: WebhookStore): Router {
  const r = Router();
  const { createSchema, patchSchema } = webhookSchemas(ctx.config.webhookAllowPrivate);

  /** A key bound to one assistant sees (and can only make) that assistant's endpoints. */
  const checkAssistant = async (res: Response, assistantId: string | null): Promise<void> => {
    const p = principalOf(res);
    if (p.assistantId && assistantId !== p.assistantId) throw notFound('Assistant');
    if (assistantId && !(await assistantExists(ctx.storage, p.organizationId, assistantId))) throw notFound('Assistant');
  };
  const visibleEndpoint = async (res: Response, id: string): Promise<WebhookEndpoint> => {
    const p = principalOf(res);
    const e = await store.get(p.organizationId, id);
    if (!e || (p.assistantId && e.assistantId !== p.assistantId)) throw notFound('Webhook');
    return e;
  };
  const view = ({ organizationId: _o, ...e }: WebhookEndpoint) => e;

  r.post('/webhooks', requirePermission('webhooks:write'), async (req, res) => {
    const p = principalOf(res);
    const input = parseInput(createSchema, req.body);
    const assistantId = input.assistantId ?? p.assistantId;
    await checkAssistant(res, assistantId);
    if ((await store.count(p.organizationId)) >= MAX_ENDPOINTS_PER_ORG)
      throw new AppError('conflict', `An organization can have at most ${MAX_ENDPOINTS_PER_ORG} webhook endpoints`);
    // The creator is recorded so removing that member can disable (or transfer) it (issue 24).
    const createdBy = await creatorOf(ctx.storage, p);
    const created = await store.create(
      p.organizationId,
      { url: input.url, events: input.events, assistantId, description: input.description ?? null, createdBy },
      nowIso(ctx),
    );
    sendData(res, view(created), 201);
  });

  r.get('/webhooks', requirePermission('webhooks:write'), async (req, res) => {
    const p = principalOf(res);
    const page = readPage(req);
    const { items, total } = await store.list(p.organizationId, p.assistantId, page);
    sendPage(res, items.map(view), total, page);
  });

  r.get('/webhooks/:id', requirePermission('webhooks:write'), async (req, res) => {
    const { id } = pathParams(req, 'id');
    sendData(res, view(await visibleEndpoint(res, id)));
  });

  r.patch('/webhooks/:id', requirePermission('webhooks:write'), async (req, res) => {
    const { id } = pathParams(req, 'id');
    const current = await visibleEndpoint(res, id);
    const input = parseInput(patchSchema, req.body);
    if (input.assistantId !== undefined) await checkAssistant(res, input.assistantId);
    sendData(res, view(await store.update(current, input, nowIso(ctx))));
  });

  r.delete('/webhooks/:id', requirePermission('webhooks:write'), async (req, res) => {
    const { id } = pathParams(req, 'id');
    const current = await visibleEndpoint(res, id);
    await store.remove(current.organizationId, current.id);
    sendData(res, { id: current.id, deleted: true });
  });

  r.get('/webhooks/:id/deliveries', requirePermission('webhooks:write'), async (req, res) => {
    const { id } = pathParams(req, 'id');
    const endpoint = await visibleEndpoint(res, id);
    const page = readPage(req);
    const { items, total } = await store.attempts(endpoint.id, page);
    sendPage(res, items, total, page);
  });

  // The delivery log lists attempts; redeliver takes the item's deliveryId (dlv_…) or its id (att_…).
  r.post('/webhooks/:id/deliveries/:deliveryId/redeliver', requirePermission('webhooks:write'), async (req, res) => {
    const { id, deliveryId: deliveryRef } = pathParams(req, 'id', 'deliveryId');
    const endpoint = await visibleEndpoint(res, id);
    const ref = /^(dlv|att)_(\d{1,15})$/.exec(deliveryRef);
    const deliveryId = !ref
      ? null
      : ref[1] === 'dlv'
        ? Number(ref[2])
        : await ctx.webhooks.outbox.deliveryOfAttempt(endpoint.id, Number(ref[2]));
    if (deliveryId === null) throw notFound('Delivery');
    if (!endpoint.enabled)
      throw new AppError('conflict', 'This webhook is disabled: enable it (PATCH {"enabled": true}) before redelivering');
    const queued = await ctx.webhooks.outbox.redeliver(endpoint.id, deliveryId);
    if (!queued) throw notFound('Delivery');
    sendData(
      res,
      {
        deliveryId: `dlv_${queued.deliveryId}`,
        webhookId: queued.eventId,
        eventId: queued.eventId,
        event: queued.type,
        endpointId: endpoint.id,
        status: 'pending',
        nextAttemptAt: new Date(queued.nextAttemptAt).toISOString(),
      },
      202,
    );
  });

  r.post('/webhooks/:id/test', requirePermission('webhooks:write'), async (req, res) => {
    const { id } = pathParams(req, 'id');
    const endpoint = await visibleEndpoint(res, id);
    if (!endpoint.enabled)
      throw new AppError('conflict', 'This webhook is disabled: enable it (PATCH {"enabled": true}) before testing it');
    const webhookId = await ctx.storage.tx((tx) => ctx.webhooks.test(tx, endpoint));
    sendData(res, { webhookId, event: 'webhook.test', endpointId: endpoint.id, status: 'pending', createdAt: nowIso(ctx) });
  });

  return r;
}
