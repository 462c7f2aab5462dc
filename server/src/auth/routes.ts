import { Router, type Request, type RequestHandler, type Response } from 'express';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { nowIso } from '../context.js';
import { principalOf } from './middleware.js';
import { AppError } from '../http/errors.js';
import { sendData } from '../http/pagination.js';
import { clearSessionCookie, dashboardOriginProblem, isDashboardRequest, setSessionCookie } from './session-cookie.js';
import { parseInput } from '../http/validate.js';
import { isUniqueViolation } from '../storage/port.js';
import { describeCaller } from './me.js';
import { publicInvitationsRouter } from '../organizations/invitations-public.js';
import type { Principal } from './permissions.js';
import { getOrganization } from '../organizations/service.js';
import { MIN_PASSWORD_LENGTH, passwordProblem } from './password-policy.js';
import { dummyPasswordHash, hashPassword, verifyPassword } from './passwords.js';
import {
  changePassword,
  createSession,
  findMembership,
  findUserByEmail,
  findUserById,
  primaryOrganization,
  registerAccount,
  revokeSession,
  updateUserName,
} from './service.js';

export const email = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ message: 'must be a valid email address' }).max(254));

export const registerSchema = z.strictObject({
  email,
  password: z.string().min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`).max(256),
  name: z.string().trim().min(1).max(100).optional(),
  organizationName: z.string().trim().min(1).max(200),
});

export const loginSchema = z.strictObject({ email, password: z.string().min(1).max(256) });
export const switchSchema = z.strictObject({ organizationId: z.string().min(1).max(64) });
export const profileSchema = z.strictObject({ name: z.string().trim().min(1).max(100).nullable() });
export const passwordSchema = z.strictObject({
  currentPassword: z.string().min(1).max(256),
  newPassword: z.string().min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`).max(256),
});

const FIFTEEN_MINUTES = 15 * 60_000;
/** Failed logins tolerated per 15 minutes before 429: per email, and per client IP. */
export const LOGIN_LIMITS = { perEmail: 5, perIp: 20 } as const;
/** Registrations per client IP per hour. */
export const REGISTRATION_LIMIT_PER_HOUR = 10;

/**
 * Answers a new session: from the dashboard (CSRF header, PUBLIC_URL's origin) as the
 * httpOnly cookie with no token in the body; otherwise the token in the body, as always.
 */
function sendSession(ctx: AppContext, req: Request, res: Response, body: { token: string } & Record<string, unknown>, status = 200): void {
  if (!isDashboardRequest(req, ctx.config.publicUrl)) return sendData(res, body, status);
  const { token, ...rest } = body;
  setSessionCookie(res, token, ctx.config.publicUrl);
  sendData(res, rest, status);
}

function refuseForeignDashboard(ctx: AppContext, req: Request): void {
  const problem = dashboardOriginProblem(req, ctx.config.publicUrl);
  if (problem) throw new AppError('permission_denied', problem);
}

function userPrincipal(res: Response): Principal & { userId: string } {
  const p = principalOf(res);
  if (p.kind !== 'user' || p.userId === null)
    throw new AppError('permission_denied', 'This route acts on a user account: use a user session, not an API key');
  return p as Principal & { userId: string };
}

export function authRouter(ctx: AppContext, authenticate: RequestHandler[]): Router {
  const r = Router();
  const emailFailures = ctx.limiter.failureTracker('login-email', LOGIN_LIMITS.perEmail, FIFTEEN_MINUTES);
  const ipFailures = ctx.limiter.failureTracker('login-ip', LOGIN_LIMITS.perIp, FIFTEEN_MINUTES);
  const registrations = ctx.limiter.failureTracker('register-ip', REGISTRATION_LIMIT_PER_HOUR, 60 * 60_000);

  r.post('/auth/register', async (req, res) => {
    if (ctx.config.registration === 'closed') throw new AppError('permission_denied', 'Registration is closed on this server');
    refuseForeignDashboard(ctx, req);
    const ip = req.ip ?? '';
    if (await registrations.blocked(ip))
      throw new AppError('rate_limit_exceeded', 'Too many registrations from this address, try again later', { 'Retry-After': '3600' });
    const input = parseInput(registerSchema, req.body);
    const weak = await passwordProblem(input.password, { email: input.email, name: input.name, organizationName: input.organizationName });
    if (weak) throw new AppError('validation_error', `password: ${weak}`);
    if (await findUserByEmail(ctx.storage, input.email)) throw new AppError('conflict', 'An account with this email already exists');
    const passwordHash = await hashPassword(input.password);
    try {
      const account = await ctx.storage.tx((tx) =>
        registerAccount(
          tx,
          { email: input.email, passwordHash, name: input.name ?? null, organizationName: input.organizationName },
          ctx.clock.now(),
        ),
      );
      await registrations.record(ip);
      sendSession(ctx, req, res, account, 201);
    } catch (err) {
      // Two registrations racing for one email: the UNIQUE constraint decides.
      if (isUniqueViolation(err)) throw new AppError('conflict', 'An account with this email already exists');
      throw err;
    }
  });

  r.post('/auth/login', async (req, res) => {
    refuseForeignDashboard(ctx, req);
    const input = parseInput(loginSchema, req.body);
    const ip = req.ip ?? '';
    if ((await emailFailures.blocked(input.email)) || (await ipFailures.blocked(ip))) {
      throw new AppError('rate_limit_exceeded', 'Too many failed login attempts, try again in 15 minutes', { 'Retry-After': '900' });
    }
    const user = await findUserByEmail(ctx.storage, input.email);
    // Verify against a dummy hash for unknown emails so timing does not reveal who has an account.
    const ok = await verifyPassword(user?.password_hash ?? (await dummyPasswordHash()), input.password);
    const organization = user && ok ? await primaryOrganization(ctx.storage, user.id) : null;
    if (!user || !organization) {
      await Promise.all([emailFailures.record(input.email), ipFailures.record(ip)]);
      throw new AppError('authentication_error', 'Invalid email or password');
    }
    const token = await createSession(ctx.storage, user.id, organization.id, ctx.clock.now());
    sendSession(ctx, req, res, { user: { id: user.id, email: user.email, name: user.name }, organization, token });
  });

  r.post('/auth/logout', ...authenticate, async (_req, res) => {
    const p = principalOf(res);
    if (p.kind !== 'user')
      throw new AppError('validation_error', 'Logout revokes a user session token; revoke API keys with DELETE /v1/api-keys/:id');
    await revokeSession(ctx.storage, p.credentialId, nowIso(ctx));
    clearSessionCookie(res, ctx.config.publicUrl);
    sendData(res, { revoked: true });
  });

  r.get('/auth/me', ...authenticate, async (_req, res) => {
    sendData(res, await describeCaller(ctx.storage, principalOf(res)));
  });

  r.patch('/auth/me', ...authenticate, async (req, res) => {
    const p = userPrincipal(res);
    const input = parseInput(profileSchema, req.body);
    sendData(res, await updateUserName(ctx.storage, p.userId, input.name));
  });

  r.post('/auth/password', ...authenticate, async (req, res) => {
    const p = userPrincipal(res);
    const input = parseInput(passwordSchema, req.body);
    const user = await findUserById(ctx.storage, p.userId);
    if (!user) throw new AppError('authentication_error', 'Invalid, expired or revoked API token');
    // A stolen session must not become a password oracle: failures count like failed logins.
    if (await emailFailures.blocked(user.email))
      throw new AppError('rate_limit_exceeded', 'Too many failed attempts, try again in 15 minutes', { 'Retry-After': '900' });
    if (!(await verifyPassword(user.password_hash, input.currentPassword))) {
      await emailFailures.record(user.email);
      throw new AppError('validation_error', 'currentPassword: is not your current password');
    }
    const organization = await getOrganization(ctx.storage, p.organizationId);
    const weak = await passwordProblem(input.newPassword, { email: user.email, name: user.name, organizationName: organization?.name });
    if (weak) throw new AppError('validation_error', `newPassword: ${weak}`);
    const passwordHash = await hashPassword(input.newPassword);
    const revokedSessions = await ctx.storage.tx((tx) => changePassword(tx, p.userId, passwordHash, p.credentialId, nowIso(ctx)));
    sendData(res, { changed: true, revokedSessions });
  });

  // A user in several organizations (invited into another): a session in another one of them.
  r.post('/auth/switch', ...authenticate, async (req, res) => {
    const p = userPrincipal(res);
    const input = parseInput(switchSchema, req.body);
    const target = await findMembership(ctx.storage, p.userId, input.organizationId);
    if (!target) throw new AppError('resource_not_found', 'Organization not found');
    const user = await findUserById(ctx.storage, p.userId);
    if (!user) throw new AppError('authentication_error', 'Invalid, expired or revoked API token');
    const token = await createSession(ctx.storage, p.userId, target.organization.id, ctx.clock.now());
    // From the dashboard the cookie is replaced, so nobody holds the old session any more: end it.
    if (isDashboardRequest(req, ctx.config.publicUrl)) await revokeSession(ctx.storage, p.credentialId, nowIso(ctx));
    sendSession(ctx, req, res, {
      user: { id: user.id, email: user.email, name: user.name },
      organization: target.organization,
      role: target.role,
      token,
    });
  });

  r.use(
    publicInvitationsRouter(ctx, {
      emailFailures,
      ipFailures,
      sendSession: (req, res, body, status) => sendSession(ctx, req, res, body, status),
    }),
  );

  return r;
}
