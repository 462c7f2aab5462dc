import { Router } from 'express';
import { z } from 'zod';
import { PERMISSIONS, PLAN_LIMITS } from '../auth/permissions.js';
import { assistantExists } from '../assistants/service.js';
import type { AppContext } from '../context.js';
import { nowIso } from '../context.js';
import { principalOf, requirePermission } from '../auth/middleware.js';
import { AppError, notFound } from '../http/errors.js';
import { readPage, sendData, sendPage } from '../http/pagination.js';
import { parseInput, pathParams } from '../http/validate.js';
import { parseIpRule } from '../lib/ip.js';
import { creatorOf, getApiKey, insertApiKey, listApiKeys, revokeApiKey, rotateApiKey } from './service.js';

export const createSchema = z.strictObject({
  name: z.string().trim().min(1).max(100),
  permissions: z.array(z.enum(PERMISSIONS)).min(1).max(PERMISSIONS.length),
  assistantId: z.string().min(1).max(64).nullish(),
  allowedIps: z
    .array(
      z
        .string()
        .max(64)
        .refine((v) => parseIpRule(v) !== null, { message: 'must be an IPv4/IPv6 address or CIDR block' }),
    )
    .max(100)
    .default([]),
  rateLimit: z
    .strictObject({
      perMinute: z.int().min(1).max(1_000_000).nullish(),
      perDay: z.int().min(1).max(100_000_000).nullish(),
    })
    .default({}),
  expiresAt: z.iso.datetime({ offset: true }).nullish(),
});

export const rotateSchema = z.strictObject({ graceSeconds: z.int().min(0).max(604_800).default(0) });

export function apiKeysRouter(ctx: AppContext): Router {
  const r = Router();

  r.post('/api-keys', requirePermission('api_keys:write'), async (req, res) => {
    const p = principalOf(res);
    const input = parseInput(createSchema, req.body);
    const missing = input.permissions.filter((perm) => !p.permissions.has(perm));
    if (missing.length) throw new AppError('permission_denied', `A key cannot grant permissions its creator lacks: ${missing.join(', ')}`);
    // A key bound to an assistant can only mint keys bound to the same assistant.
    const assistantId = input.assistantId ?? p.assistantId;
    if (p.assistantId && assistantId !== p.assistantId) throw notFound('Assistant');
    if (assistantId && !(await assistantExists(ctx.storage, p.organizationId, assistantId))) throw notFound('Assistant');
    const plan = PLAN_LIMITS[p.plan];
    const { perMinute, perDay } = input.rateLimit;
    if ((perMinute ?? 0) > plan.perMinute || (perDay ?? 0) > plan.perDay) {
      throw new AppError(
        'validation_error',
        `rateLimit may only lower the ${p.plan} plan's limits (${plan.perMinute}/min, ${plan.perDay}/day)`,
      );
    }
    if (input.expiresAt && Date.parse(input.expiresAt) <= ctx.clock.now())
      throw new AppError('validation_error', 'expiresAt must be in the future');
    const { record, key } = await insertApiKey(
      ctx.storage,
      p.organizationId,
      {
        name: input.name,
        permissions: input.permissions,
        assistantId: assistantId ?? null,
        allowedIps: input.allowedIps,
        rateLimit: { perMinute: perMinute ?? null, perDay: perDay ?? null },
        expiresAt: input.expiresAt ? new Date(input.expiresAt).toISOString() : null,
        createdBy: await creatorOf(ctx.storage, p), // removing that member revokes (or transfers) it
      },
      nowIso(ctx),
    );
    sendData(res, { ...withoutRevoked(record), key }, 201);
  });

  r.get('/api-keys', requirePermission('api_keys:write'), async (req, res) => {
    const p = principalOf(res);
    const page = readPage(req);
    const { items, total } = await listApiKeys(ctx.storage, p.organizationId, p.assistantId, page);
    sendPage(res, items.map(withoutRevoked), total, page);
  });

  const visibleKey = async (orgId: string, assistantId: string | null, id: string) => {
    const key = await getApiKey(ctx.storage, orgId, id);
    if (!key || key.revokedAt !== null || (assistantId && key.assistantId !== assistantId)) throw notFound('API key');
    return key;
  };

  r.get('/api-keys/:id', requirePermission('api_keys:write'), async (req, res) => {
    const { id } = pathParams(req, 'id');
    const p = principalOf(res);
    sendData(res, withoutRevoked(await visibleKey(p.organizationId, p.assistantId, id)));
  });

  r.delete('/api-keys/:id', requirePermission('api_keys:write'), async (req, res) => {
    const { id } = pathParams(req, 'id');
    const p = principalOf(res);
    const key = await visibleKey(p.organizationId, p.assistantId, id);
    await revokeApiKey(ctx.storage, p.organizationId, key.id, nowIso(ctx));
    ctx.credentials.forgetOrganization(p.organizationId); // refused at once here; other instances within the cache TTL
    sendData(res, { id: key.id, revoked: true });
  });

  r.post('/api-keys/:id/rotate', requirePermission('api_keys:write'), async (req, res) => {
    const { id } = pathParams(req, 'id');
    const p = principalOf(res);
    const { graceSeconds } = parseInput(rotateSchema, req.body ?? {});
    const key = await visibleKey(p.organizationId, p.assistantId, id);
    const missing = key.permissions.filter((perm) => !p.permissions.has(perm));
    if (missing.length)
      throw new AppError('permission_denied', `Rotating this key would grant permissions you lack: ${missing.join(', ')}`);
    // The replacement's creator is whoever rotated it: they hold its plaintext now.
    const rotatedBy = await creatorOf(ctx.storage, p);
    const rotated = await ctx.storage.tx((tx) => rotateApiKey(tx, p.organizationId, key.id, graceSeconds, ctx.clock.now(), rotatedBy));
    ctx.credentials.forgetOrganization(p.organizationId); // the old key's revocation or grace expiry applies at once here
    if (!rotated) throw notFound('API key');
    sendData(res, { ...withoutRevoked(rotated.record), key: rotated.key, replaces: key.id }, 201);
  });

  return r;
}

function withoutRevoked<T extends { revokedAt: unknown }>(record: T): Omit<T, 'revokedAt'> {
  const { revokedAt: _omit, ...rest } = record;
  return rest;
}
