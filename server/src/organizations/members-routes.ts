import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { roleManagesMembers, type Principal } from '../auth/permissions.js';
import type { AppContext } from '../context.js';
import { nowIso } from '../context.js';
import { principalOf } from '../auth/middleware.js';
import { AppError, notFound } from '../http/errors.js';
import { readPage, sendData, sendPage } from '../http/pagination.js';
import { parseInput, pathParams } from '../http/validate.js';
import {
  countPendingInvitations,
  createInvitation,
  listPendingInvitations,
  MAX_PENDING_INVITATIONS,
  revokeInvitation,
} from './invitations.js';
import { CREATED_CHOICES, createdByMember, listMemberAudit, recordRemoval } from './member-removal.js';
import { changeRole, getMember, listMembers, removeMember, transferOwnership, type Actor } from './members.js';

export const memberRoleSchema = z.strictObject({ role: z.enum(['admin', 'editor', 'viewer']) });
/** `?created=`: what becomes of the removed member's keys and webhooks (member-removal.ts). */
export const removeMemberQuery = z.strictObject({ created: z.enum(CREATED_CHOICES).default('revoke') });
export const transferSchema = z.strictObject({ userId: z.string().min(1).max(64) });
export const createInvitationSchema = z.strictObject({
  role: z.enum(['admin', 'editor', 'viewer']),
  email: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.email({ message: 'must be a valid email address' }).max(254))
    .nullish(),
});

const actorOf = (p: Principal): Actor => ({ userId: p.userId, role: p.role ?? null });

/**
 * Members, roles and invitations of the caller's organization (docs/api-spec.md §11). Sessions: any
 * member lists; admins and the owner manage (roleManagesMembers); the owner transfers. API keys
 * have no role: members management needs `organizations:write` (the owner's permission), and
 * a key never transfers ownership.
 */
export function membersRouter(ctx: AppContext): Router {
  const r = Router();

  /** The organization in the path, which must be the caller's own (any other id is 404). */
  const ownOrg = (req: Request, res: Response): Principal => {
    const p = principalOf(res);
    if (req.params.id !== p.organizationId) throw notFound('Organization');
    return p;
  };
  const canManage = (p: Principal): boolean => (p.kind === 'user' ? roleManagesMembers(p.role) : p.permissions.has('organizations:write'));
  const manager = (req: Request, res: Response): Principal => {
    const p = ownOrg(req, res);
    if (!canManage(p))
      throw new AppError(
        'permission_denied',
        p.kind === 'user' ? 'Managing members needs the admin or owner role' : 'This API key lacks the organizations:write permission',
      );
    return p;
  };

  r.get('/organizations/:id/members', async (req, res) => {
    const p = ownOrg(req, res);
    if (p.kind !== 'user' && !canManage(p))
      throw new AppError('permission_denied', 'This API key lacks the organizations:write permission');
    const page = readPage(req);
    const { items, total } = await listMembers(ctx.storage, p.organizationId, page);
    sendPage(res, items, total, page);
  });

  r.patch('/organizations/:id/members/:userId', async (req, res) => {
    const { userId } = pathParams(req, 'userId');
    const p = manager(req, res);
    const input = parseInput(memberRoleSchema, req.body);
    if (userId === p.userId) throw new AppError('validation_error', 'role: you cannot change your own role');
    sendData(res, await ctx.storage.tx((tx) => changeRole(tx, p.organizationId, actorOf(p), userId, input.role)));
  });

  // What removing this member would leave behind, and what becomes of each (the dashboard's confirmation).
  r.get('/organizations/:id/members/:userId/created', async (req, res) => {
    const { userId } = pathParams(req, 'userId');
    const p = manager(req, res);
    if (!(await getMember(ctx.storage, p.organizationId, userId))) throw notFound('Member');
    sendData(res, await createdByMember(ctx.storage, p.organizationId, userId, ctx.clock.now()));
  });

  r.delete('/organizations/:id/members/:userId', async (req, res) => {
    const { userId } = pathParams(req, 'userId');
    const p = ownOrg(req, res);
    const { created } = parseInput(removeMemberQuery, { created: req.query.created });
    // Anyone may leave; removing someone else needs the right to manage members.
    if (userId !== p.userId && !canManage(p)) throw new AppError('permission_denied', 'Removing a member needs the admin or owner role');
    const nowMs = ctx.clock.now();
    const { outcome } = await ctx.storage.tx(async (tx) => {
      const removed = await removeMember(tx, p.organizationId, actorOf(p), userId, nowMs, created);
      await recordRemoval(tx, {
        organizationId: p.organizationId,
        actorUserId: p.userId,
        actorApiKeyId: p.kind === 'api_key' ? p.credentialId : null,
        member: removed.member,
        choice: created,
        outcome: removed.outcome,
        at: new Date(nowMs).toISOString(),
      });
      return removed;
    });
    ctx.credentials.forgetOrganization(p.organizationId); // revoked keys are refused at once here; other instances within the cache TTL
    sendData(res, { userId, removed: true, created: outcome });
  });

  r.get('/organizations/:id/audit', async (req, res) => {
    const p = manager(req, res);
    const page = readPage(req);
    const { items, total } = await listMemberAudit(ctx.storage, p.organizationId, page);
    sendPage(res, items, total, page);
  });

  r.post('/organizations/:id/transfer', async (req, res) => {
    const p = ownOrg(req, res);
    if (p.kind !== 'user' || p.role !== 'owner' || !p.userId)
      throw new AppError('permission_denied', 'Only the owner (signed in) can transfer ownership');
    const input = parseInput(transferSchema, req.body);
    const ownerId = p.userId;
    sendData(res, await ctx.storage.tx((tx) => transferOwnership(tx, p.organizationId, ownerId, input.userId)));
  });

  r.post('/organizations/:id/invitations', async (req, res) => {
    const p = manager(req, res);
    const input = parseInput(createInvitationSchema, req.body);
    // Only the owner (or an organizations:write key) hands out the admin role, as with role changes.
    if (input.role === 'admin' && p.kind === 'user' && p.role !== 'owner')
      throw new AppError('permission_denied', 'Only the owner invites admins');
    const nowMs = ctx.clock.now();
    // Counted and written in one transaction, so parallel requests cannot pass the cap together (SQLite).
    const inv = await ctx.storage.tx(async (tx) => {
      if ((await countPendingInvitations(tx, p.organizationId, nowMs)) >= MAX_PENDING_INVITATIONS) {
        throw new AppError(
          'conflict',
          `An organization can have at most ${MAX_PENDING_INVITATIONS} pending invitations: revoke some first`,
        );
      }
      return createInvitation(
        tx,
        { organizationId: p.organizationId, role: input.role, email: input.email ?? null, invitedBy: p.userId },
        nowMs,
      );
    });
    sendData(res, { ...inv, url: `${ctx.config.publicUrl}/dashboard/invite/${inv.token}` }, 201);
  });

  r.get('/organizations/:id/invitations', async (req, res) => {
    const p = manager(req, res);
    const page = readPage(req);
    const { items, total } = await listPendingInvitations(ctx.storage, p.organizationId, ctx.clock.now(), page);
    sendPage(res, items, total, page);
  });

  r.delete('/organizations/:id/invitations/:invitationId', async (req, res) => {
    const { invitationId: id } = pathParams(req, 'invitationId');
    const p = manager(req, res);
    if (!(await revokeInvitation(ctx.storage, p.organizationId, id, ctx.clock.now()))) throw notFound('Invitation');
    sendData(res, { id, deleted: true });
  });

  return r;
}
