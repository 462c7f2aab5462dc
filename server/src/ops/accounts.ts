import type { Plan } from '../auth/permissions.js';
import { hashPassword } from '../auth/passwords.js';
import { findUserByEmail, insertUser, type PublicUser } from '../auth/service.js';
import { newId, randomBase62 } from '../lib/ids.js';
import { createOrganization, getOrganization, updateOrganization, type Organization } from '../organizations/service.js';
import type { Storage } from '../storage/port.js';
import { CliError } from './cli.js';

/**
 * The account work of `npm run admin` (ops/admin.ts), on the storage port the server uses, so
 * the same code runs on SQLite and PostgreSQL, with or without a server on the database.
 */

export const PLANS: readonly Plan[] = ['free', 'pro', 'enterprise'];

/** 20 base62 characters (119 bits) from the CSPRNG: above any length or strength rule for passwords. */
export const newPassword = (): string => randomBase62(20);

export interface PasswordReset {
  user: PublicUser;
  password: string;
  revokedSessions: number;
}

/**
 * A new random password for the user, and every session of theirs revoked (all organizations):
 * whoever held one must sign in again with the new password. Sessions are read on each request
 * (auth/credentials.ts), so a running server refuses the old ones at once.
 */
export async function resetPassword(storage: Storage, email: string, nowMs: number): Promise<PasswordReset> {
  const user = await findUserByEmail(storage, email);
  if (!user) throw new CliError(`no user with email ${email}`);
  const password = newPassword();
  const hash = await hashPassword(password); // outside the transaction: it takes tens of ms
  const at = new Date(nowMs).toISOString();
  const revokedSessions = await storage.tx(async (tx) => {
    await tx.run('UPDATE users SET password_hash = ? WHERE id = ?', [hash, user.id]);
    return (await tx.run('UPDATE user_sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL', [at, user.id])).changes;
  });
  return { user: { id: user.id, email: user.email, name: user.name }, password, revokedSessions };
}

export interface OrganizationSummary extends Organization {
  members: number;
  owners: string[];
}

/** Every organization, oldest first, with its member count and owners' emails. */
export async function listOrganizations(storage: Storage): Promise<OrganizationSummary[]> {
  const [orgs, members] = await Promise.all([
    storage.all<{ id: string; name: string; plan: Plan; created_at: string }>(
      'SELECT id, name, plan, created_at FROM organizations ORDER BY created_at, id',
    ),
    storage.all<{ organization_id: string; role: string; email: string }>(
      'SELECT m.organization_id, m.role, u.email FROM memberships m JOIN users u ON u.id = m.user_id ORDER BY u.email',
    ),
  ]);
  return orgs.map((o) => {
    const own = members.filter((m) => m.organization_id === o.id);
    return {
      id: o.id,
      name: o.name,
      plan: o.plan,
      createdAt: o.created_at,
      members: own.length,
      owners: own.filter((m) => m.role === 'owner').map((m) => m.email),
    };
  });
}

/** Moves an organization to another plan; returns the plan it had. */
export async function setPlan(
  storage: Storage,
  organizationId: string,
  plan: string,
): Promise<{ organization: Organization; previous: Plan }> {
  if (!PLANS.includes(plan as Plan)) throw new CliError(`unknown plan "${plan}": use one of ${PLANS.join(', ')}`, 2);
  const current = await getOrganization(storage, organizationId);
  if (!current) throw new CliError(`no organization with id ${organizationId} (list them: npm run admin -- list-orgs)`);
  const organization = await updateOrganization(storage, organizationId, { plan: plan as Plan });
  if (!organization) throw new CliError(`no organization with id ${organizationId}`);
  return { organization, previous: current.plan };
}

export interface CreatedUser {
  user: PublicUser;
  organization: Organization;
  password: string;
}

/**
 * A new user with a random password, owner of a new organization (free plan), as registration
 * makes one but without a session: the password is given to the person, who signs in.
 */
export async function createUser(storage: Storage, email: string, organizationName: string, nowMs: number): Promise<CreatedUser> {
  if (await findUserByEmail(storage, email)) throw new CliError(`a user with email ${email} already exists`);
  const password = newPassword();
  const hash = await hashPassword(password);
  const at = new Date(nowMs).toISOString();
  const user: PublicUser = { id: newId('usr'), email, name: null };
  try {
    const organization = await storage.tx(async (tx) => {
      await insertUser(tx, user, hash, at);
      const org = await createOrganization(tx, organizationName, at);
      await tx.run('INSERT INTO memberships (user_id, organization_id, role, created_at) VALUES (?, ?, ?, ?)', [
        user.id,
        org.id,
        'owner',
        at,
      ]);
      return org;
    });
    return { user, organization, password };
  } catch (err) {
    // Registered meanwhile (through the server): the UNIQUE constraint on the email decides.
    if (await findUserByEmail(storage, email)) throw new CliError(`a user with email ${email} already exists`);
    throw err;
  }
}
