import type { Db } from '../db/open.js';
import { newId } from '../lib/ids.js';
import { createOrganization, type Organization, toOrganization } from '../organizations/service.js';
import { newSessionToken, hashToken } from './tokens.js';

export const SESSION_TTL_MS = 30 * 86_400_000;

export interface PublicUser { id: string; email: string; name: string | null }
interface UserRow { id: string; email: string; name: string | null; password_hash: string }

export function findUserByEmail(db: Db, email: string): UserRow | undefined {
  return db.prepare<[string], UserRow>('SELECT id, email, name, password_hash FROM users WHERE email = ?').get(email);
}

export function primaryOrganization(db: Db, userId: string): Organization | null {
  const row = db
    .prepare(`SELECT o.* FROM organizations o JOIN memberships m ON m.organization_id = o.id WHERE m.user_id = ? ORDER BY m.created_at, o.rowid LIMIT 1`)
    .get(userId) as Parameters<typeof toOrganization>[0] | undefined;
  return row ? toOrganization(row) : null;
}

export function createSession(db: Db, userId: string, organizationId: string, nowMs: number): string {
  const token = newSessionToken();
  db.prepare('INSERT INTO user_sessions (id, token_hash, user_id, organization_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)')
    .run(newId('sess'), hashToken(token), userId, organizationId, new Date(nowMs).toISOString(), new Date(nowMs + SESSION_TTL_MS).toISOString());
  return token;
}

/** Creates user, organization, membership and a first session in one transaction. */
export function registerAccount(db: Db, input: { email: string; passwordHash: string; name: string | null; organizationName: string }, nowMs: number) {
  const at = new Date(nowMs).toISOString();
  return db.transaction(() => {
    const userId = newId('usr');
    db.prepare('INSERT INTO users (id, email, name, password_hash, created_at) VALUES (?, ?, ?, ?, ?)').run(userId, input.email, input.name, input.passwordHash, at);
    const organization = createOrganization(db, input.organizationName, at);
    db.prepare('INSERT INTO memberships (user_id, organization_id, role, created_at) VALUES (?, ?, ?, ?)').run(userId, organization.id, 'owner', at);
    const token = createSession(db, userId, organization.id, nowMs);
    const user: PublicUser = { id: userId, email: input.email, name: input.name };
    return { user, organization, token };
  })();
}

export function revokeSession(db: Db, sessionId: string, at: string): void {
  db.prepare('UPDATE user_sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(at, sessionId);
}

export function findUserById(db: Db, id: string): UserRow | undefined {
  return db.prepare<[string], UserRow>('SELECT id, email, name, password_hash FROM users WHERE id = ?').get(id);
}

export function updateUserName(db: Db, userId: string, name: string | null): PublicUser {
  db.prepare('UPDATE users SET name = ? WHERE id = ?').run(name, userId);
  const row = findUserById(db, userId) as UserRow;
  return { id: row.id, email: row.email, name: row.name };
}

/** Sets a new password and revokes every other session of the user (all organizations); returns how many. */
export function changePassword(db: Db, userId: string, passwordHash: string, keepSessionId: string, at: string): number {
  return db.transaction(() => {
    db.prepare('UPDATE users SET password_hash = ? WHERE id = ?').run(passwordHash, userId);
    return db.prepare('UPDATE user_sessions SET revoked_at = ? WHERE user_id = ? AND id <> ? AND revoked_at IS NULL').run(at, userId, keepSessionId).changes;
  })();
}

/** Revokes a user's live sessions in one organization (removed from it); returns how many. */
export function revokeSessionsIn(db: Db, userId: string, organizationId: string, at: string): number {
  return db.prepare('UPDATE user_sessions SET revoked_at = ? WHERE user_id = ? AND organization_id = ? AND revoked_at IS NULL').run(at, userId, organizationId).changes;
}

/** The user's membership of one organization, with the organization; null when not a member. */
export function findMembership(db: Db, userId: string, organizationId: string): { organization: Organization; role: string } | null {
  const row = db.prepare(`SELECT o.*, m.role FROM organizations o JOIN memberships m ON m.organization_id = o.id WHERE m.user_id = ? AND o.id = ?`)
    .get(userId, organizationId) as (Parameters<typeof toOrganization>[0] & { role: string }) | undefined;
  return row ? { organization: toOrganization(row), role: row.role } : null;
}
