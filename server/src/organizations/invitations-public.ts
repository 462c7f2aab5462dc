import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { passwordProblem } from '../auth/password-policy.js';
import { hashPassword, verifyPassword } from '../auth/passwords.js';
import { createSession, findUserByEmail, insertUser, type PublicUser } from '../auth/service.js';
import type { AppContext } from '../context.js';
import type { FailureTracker } from '../auth/middleware.js';
import { AppError, notFound } from '../http/errors.js';
import { sendData } from '../http/pagination.js';
import { dashboardOriginProblem } from '../auth/session-cookie.js';
import { parseInput, pathParams } from '../http/validate.js';
import { newId } from '../lib/ids.js';
import { isUniqueViolation } from '../storage/port.js';
import { consumeInvitation, findPendingInvitation } from './invitations.js';
import { addMember, getMember } from './members.js';
import { getOrganization } from './service.js';

export const acceptInvitationSchema = z.strictObject({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.email({ message: 'must be a valid email address' }).max(254)),
  password: z.string().min(1).max(256),
  name: z.string().trim().min(1).max(100).optional(),
});

const INVITATION_GONE = 'Invitation not found: it was used, revoked or has expired';

/**
 * The invitation link's two public routes (no credential: the token is the credential).
 * Accepting works as register for a new email and as login for an existing one (password
 * checked and throttled like a login); either way the user joins with the invitation's role
 * and gets a session in that organization (a cookie from the dashboard, else a token).
 * REGISTRATION=closed does not stop an invited person: the invitation is the admin's consent.
 */
export function publicInvitationsRouter(
  ctx: AppContext,
  deps: {
    emailFailures: FailureTracker;
    ipFailures: FailureTracker;
    sendSession: (req: Request, res: Response, body: { token: string } & Record<string, unknown>, status?: number) => void;
  },
): Router {
  const r = Router();

  r.get('/invitations/:token', async (req, res) => {
    const { token } = pathParams(req, 'token');
    const inv = await findPendingInvitation(ctx.storage, token, ctx.clock.now());
    if (!inv) throw new AppError('resource_not_found', INVITATION_GONE);
    sendData(res, { organization: inv.organization, role: inv.role, email: inv.email, expiresAt: inv.expiresAt });
  });

  r.post('/invitations/:token/accept', async (req, res) => {
    const { token: invitationToken } = pathParams(req, 'token');
    const foreign = dashboardOriginProblem(req, ctx.config.publicUrl);
    if (foreign) throw new AppError('permission_denied', foreign);
    const input = parseInput(acceptInvitationSchema, req.body);
    const nowMs = ctx.clock.now();
    const inv = await findPendingInvitation(ctx.storage, invitationToken, nowMs);
    if (!inv) throw new AppError('resource_not_found', INVITATION_GONE);
    if (inv.email && inv.email.toLowerCase() !== input.email)
      throw new AppError('permission_denied', 'This invitation is for another email address');
    const ip = req.ip ?? '';
    const existing = await findUserByEmail(ctx.storage, input.email);
    let user: PublicUser;
    let status = 200;
    if (existing) {
      if ((await deps.emailFailures.blocked(input.email)) || (await deps.ipFailures.blocked(ip))) {
        throw new AppError('rate_limit_exceeded', 'Too many failed login attempts, try again in 15 minutes', { 'Retry-After': '900' });
      }
      if (!(await verifyPassword(existing.password_hash, input.password))) {
        await Promise.all([deps.emailFailures.record(input.email), deps.ipFailures.record(ip)]);
        throw new AppError('authentication_error', 'Invalid email or password');
      }
      if (await getMember(ctx.storage, inv.organization.id, existing.id))
        throw new AppError('conflict', 'You are already a member of this organization');
      user = { id: existing.id, email: existing.email, name: existing.name };
    } else {
      // A new account's password meets register's policy (auth/password-policy.ts).
      const weak = await passwordProblem(input.password, { email: input.email, name: input.name, organizationName: inv.organization.name });
      if (weak) throw new AppError('validation_error', `password: ${weak}`);
      user = { id: newId('usr'), email: input.email, name: input.name ?? null };
      status = 201;
    }
    const passwordHash = existing ? null : await hashPassword(input.password);
    const at = new Date(nowMs).toISOString();
    let token: string;
    try {
      token = await ctx.storage.tx(async (tx) => {
        if (passwordHash) await insertUser(tx, user, passwordHash, at);
        // Single use: a second accept (or a race) finds the invitation consumed.
        if (!(await consumeInvitation(tx, inv.id, user.id, nowMs))) throw notFound('Invitation');
        await addMember(tx, inv.organization.id, user.id, inv.role, at);
        return createSession(tx, user.id, inv.organization.id, nowMs);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError('conflict', 'An account with this email already exists, or it is already a member');
      throw err;
    }
    const organization = await getOrganization(ctx.storage, inv.organization.id);
    deps.sendSession(req, res, { user, organization, role: inv.role, token }, status);
  });

  return r;
}
