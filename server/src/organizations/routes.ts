import { Router } from 'express';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { principalOf, requirePermission } from '../auth/middleware.js';
import { notFound } from '../http/errors.js';
import { readPage, sendData, sendPage } from '../http/pagination.js';
import { parseInput } from '../http/validate.js';
import { listOrganizationsFor, updateOrganization } from './service.js';

export const patchSchema = z.strictObject({
  name: z.string().trim().min(1).max(200).optional(),
  plan: z.enum(['free', 'pro', 'enterprise']).optional(),
});

export function organizationsRouter(ctx: AppContext): Router {
  const r = Router();
  r.get('/organizations', async (req, res) => {
    const page = readPage(req);
    const { items, total } = await listOrganizationsFor(ctx.storage, principalOf(res), page);
    sendPage(res, items, total, page);
  });
  r.patch('/organizations/:id', requirePermission('organizations:write'), async (req, res) => {
    const p = principalOf(res);
    const input = parseInput(patchSchema, req.body);
    // Only the caller's own organization exists for it: any other id is "not found".
    if (req.params.id !== p.organizationId) throw notFound('Organization');
    const org = await updateOrganization(ctx.storage, p.organizationId, input);
    ctx.credentials.forgetOrganization(p.organizationId); // the keys' limits follow the plan at once here
    if (!org) throw notFound('Organization');
    sendData(res, org);
  });
  return r;
}
