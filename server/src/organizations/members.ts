import { isRole, type Role } from '../auth/permissions.js';
import { revokeSessionsIn } from '../auth/service.js';
import type { Db } from '../db/open.js';
import { AppError, notFound } from '../http/errors.js';

export interface Member { userId: string; email: string; name: string | null; role: Role; createdAt: string }
interface MemberRow { user_id: string; email: string; name: string | null; role: string; created_at: string }

const toMember = (r: MemberRow): Member => ({ userId: r.user_id, email: r.email, name: r.name, role: isRole(r.role) ? r.role : 'viewer', createdAt: r.created_at });

const SELECT = 'SELECT m.user_id, u.email, u.name, m.role, m.created_at FROM memberships m JOIN users u ON u.id = m.user_id';

/** Who acts on the members: a user session with its role, or an API key (no role; `organizations:write` was checked). */
export interface Actor { userId: string | null; role: Role | null }

export function listMembers(db: Db, organizationId: string, page: { limit: number; offset: number }): { items: Member[]; total: number } {
  const total = (db.prepare('SELECT count(*) AS n FROM memberships WHERE organization_id = ?').get(organizationId) as { n: number }).n;
  const rows = db.prepare<[string, number, number], MemberRow>(`${SELECT} WHERE m.organization_id = ? ORDER BY m.created_at, m.rowid LIMIT ? OFFSET ?`)
    .all(organizationId, page.limit, page.offset);
  return { items: rows.map(toMember), total };
}

export function getMember(db: Db, organizationId: string, userId: string): Member | null {
  const row = db.prepare<[string, string], MemberRow>(`${SELECT} WHERE m.organization_id = ? AND m.user_id = ?`).get(organizationId, userId);
  return row ? toMember(row) : null;
}

export function addMember(db: Db, organizationId: string, userId: string, role: Role, at: string): void {
  db.prepare('INSERT INTO memberships (user_id, organization_id, role, created_at) VALUES (?, ?, ?, ?)').run(userId, organizationId, role, at);
}

/**
 * Changes a member's role. Rules (API.md §11): nobody becomes or stops being the owner here
 * (that is a transfer); only the owner makes or unmakes admins; an API key (organizations:write,
 * checked by the route) counts as the owner's delegate.
 */
export function changeRole(db: Db, organizationId: string, actor: Actor, userId: string, role: Role): Member {
  const member = getMember(db, organizationId, userId);
  if (!member) throw notFound('Member');
  if (role === 'owner' || member.role === 'owner') throw new AppError('validation_error', 'role: the owner changes only by transfer (POST /v1/organizations/:id/transfer)');
  const actsAsOwner = actor.role === 'owner' || actor.userId === null;
  if (!actsAsOwner && (role === 'admin' || member.role === 'admin')) throw new AppError('permission_denied', 'Only the owner makes or unmakes admins');
  db.prepare('UPDATE memberships SET role = ? WHERE organization_id = ? AND user_id = ?').run(role, organizationId, userId);
  return { ...member, role };
}

/** Removes a member (or the caller leaves); their sessions in this organization end at once. */
export function removeMember(db: Db, organizationId: string, actor: Actor, userId: string, at: string): void {
  const member = getMember(db, organizationId, userId);
  if (!member) throw notFound('Member');
  if (member.role === 'owner') throw new AppError('validation_error', 'The owner cannot be removed: transfer ownership first');
  const leaving = actor.userId === userId;
  const actsAsOwner = actor.role === 'owner' || actor.userId === null;
  if (!leaving && member.role === 'admin' && !actsAsOwner) throw new AppError('permission_denied', 'Only the owner removes admins');
  db.transaction(() => {
    db.prepare('DELETE FROM memberships WHERE organization_id = ? AND user_id = ?').run(organizationId, userId);
    revokeSessionsIn(db, userId, organizationId, at);
  })();
}

/** The target becomes the owner, the old owner an admin, in one transaction. */
export function transferOwnership(db: Db, organizationId: string, ownerId: string, targetId: string): { owner: Member; previousOwner: Member } {
  if (ownerId === targetId) throw new AppError('validation_error', 'userId: you already own this organization');
  const target = getMember(db, organizationId, targetId);
  if (!target) throw notFound('Member');
  db.transaction(() => {
    db.prepare("UPDATE memberships SET role = 'admin' WHERE organization_id = ? AND user_id = ? AND role = 'owner'").run(organizationId, ownerId);
    db.prepare("UPDATE memberships SET role = 'owner' WHERE organization_id = ? AND user_id = ?").run(organizationId, targetId);
  })();
  return { owner: getMember(db, organizationId, targetId) as Member, previousOwner: getMember(db, organizationId, ownerId) as Member };
}
