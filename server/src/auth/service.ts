import { newId } from '../lib/ids.js';
import { createOrganization, type Organization, toOrganization } from '../organizations/service.js';
import type { Queryable, Tx } from '../storage/port.js';
import { newSessionToken, hashToken } from './tokens.js';

export const SESSION_TTL_MS = 30 * 86_400_000;

export interface PublicUser {
  id: string;
  email: string;
  name: string | null;
}
interface UserRow {
  id: string;
  email: string;
  name: string | null;
  password_hash: string;
}
type OrgRow = Parameters<typeof toOrganization>[0];

const ORG_COLUMNS = 'o.id, o.name, o.plan, o.created_at';
const SQL = {
  userByEmail: 'SELECT id, email, name, password_hash FROM users WHERE email = ?',
  userById: 'SELECT id, email, name, password_hash FROM users WHERE id = ?',
  insertUser: 'INSERT INTO users (id, email, name, password_hash, created_at) VALUES (?, ?, ?, ?, ?)',
  insertMembership: 'INSERT INTO memberships (user_id, organization_id, role, created_at) VALUES (?, ?, ?, ?)',
  insertSession: 'INSERT INTO user_sessions (id, token_hash, user_id, organization_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)',
} as const;

export function findUserByEmail(q: Queryable, email: string): Promise<UserRow | undefined> {
  return q.get<UserRow>(SQL.userByEmail, [email]);
}

/** The organization the user joined first (ids are time-ordered: equal join times keep creation order). */
export async function primaryOrganization(q: Queryable, userId: string): Promise<Organization | null> {
  const row = await q.get<OrgRow>(
    `SELECT ${ORG_COLUMNS} FROM organizations o JOIN memberships m ON m.organization_id = o.id
    WHERE m.user_id = ? ORDER BY m.created_at, o.id LIMIT 1`,
    [userId],
  );
  return row ? toOrganization(row) : null;
}

export async function createSession(q: Queryable, userId: string, organizationId: string, nowMs: number): Promise<string> {
  const token = newSessionToken();
  await q.run(SQL.insertSession, [
    newId('sess'),
    hashToken(token),
    userId,
    organizationId,
    new Date(nowMs).toISOString(),
    new Date(nowMs + SESSION_TTL_MS).toISOString(),
  ]);
  return token;
}

/** A new user row (no membership yet): write it in the transaction that gives it one. */
export async function insertUser(q: Queryable, user: PublicUser, passwordHash: string, at: string): Promise<void> {
  await q.run(SQL.insertUser, [user.id, user.email, user.name, passwordHash, at]);
}

export interface NewAccount {
  email: string;
  passwordHash: string;
  name: string | null;
  organizationName: string;
}
// A type, not an interface: it is spread into a response body (Record<string, unknown>).
export type RegisteredAccount = { user: PublicUser; organization: Organization; token: string };

/** Creates user, organization, membership and a first session, in the caller's transaction. */
export async function registerAccount(tx: Tx, input: NewAccount, nowMs: number): Promise<RegisteredAccount> {
  const at = new Date(nowMs).toISOString();
  const user: PublicUser = { id: newId('usr'), email: input.email, name: input.name };
  await insertUser(tx, user, input.passwordHash, at);
  const organization = await createOrganization(tx, input.organizationName, at);
  await tx.run(SQL.insertMembership, [user.id, organization.id, 'owner', at]);
  return { user, organization, token: await createSession(tx, user.id, organization.id, nowMs) };
}

export async function revokeSession(q: Queryable, sessionId: string, at: string): Promise<void> {
  await q.run('UPDATE user_sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', [at, sessionId]);
}

export function findUserById(q: Queryable, id: string): Promise<UserRow | undefined> {
  return q.get<UserRow>(SQL.userById, [id]);
}

export async function updateUserName(q: Queryable, userId: string, name: string | null): Promise<PublicUser> {
  const row = await q.get<PublicUser>('UPDATE users SET name = ? WHERE id = ? RETURNING id, email, name', [name, userId]);
  if (!row) throw new Error('user vanished');
  return { id: row.id, email: row.email, name: row.name };
}

/** Sets a new password and revokes every other session of the user (all organizations); returns how many. */
export async function changePassword(tx: Tx, userId: string, passwordHash: string, keepSessionId: string, at: string): Promise<number> {
  await tx.run('UPDATE users SET password_hash = ? WHERE id = ?', [passwordHash, userId]);
  return (
    await tx.run('UPDATE user_sessions SET revoked_at = ? WHERE user_id = ? AND id <> ? AND revoked_at IS NULL', [
      at,
      userId,
      keepSessionId,
    ])
  ).changes;
}

/** Revokes a user's live sessions in one organization (removed from it); returns how many. */
export async function revokeSessionsIn(q: Queryable, userId: string, organizationId: string, at: string): Promise<number> {
  return (
    await q.run('UPDATE user_sessions SET revoked_at = ? WHERE user_id = ? AND organization_id = ? AND revoked_at IS NULL', [
      at,
      userId,
      organizationId,
    ])
  ).changes;
}

/** The user's membership of one organization, with the organization; null when not a member. */
export async function findMembership(
  q: Queryable,
  userId: string,
  organizationId: string,
): Promise<{ organization: Organization; role: string } | null> {
  const row = await q.get<OrgRow & { role: string }>(
    `SELECT ${ORG_COLUMNS}, m.role FROM organizations o JOIN memberships m ON m.organization_id = o.id
    WHERE m.user_id = ? AND o.id = ?`,
    [userId, organizationId],
  );
  return row ? { organization: toOrganization(row), role: row.role } : null;
}
