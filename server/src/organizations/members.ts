import { isRole, type Role } from '../auth/permissions.js';
import { revokeSessionsIn } from '../auth/service.js';
import { AppError, notFound } from '../http/errors.js';
import type { Queryable, Tx } from '../storage/port.js';
import type { Actor, Member } from './member.js';
import { settleCreated, type CreatedChoice, type RemovalOutcome } from './member-removal.js';

export type { Actor, Member } from './member.js';

interface MemberRow {
  user_id: string;
  email: string;
  name: string | null;
  role: string;
  created_at: string;
}

const toMember = (r: MemberRow): Member => ({
  userId: r.user_id,
  email: r.email,
  name: r.name,
  role: isRole(r.role) ? r.role : 'viewer',
  createdAt: r.created_at,
});

const SELECT = 'SELECT m.user_id, u.email, u.name, m.role, m.created_at FROM memberships m JOIN users u ON u.id = m.user_id';

export async function listMembers(
  q: Queryable,
  organizationId: string,
  page: { limit: number; offset: number },
): Promise<{ items: Member[]; total: number }> {
  const total = (await q.get<{ n: number }>('SELECT COUNT(*) AS n FROM memberships WHERE organization_id = ?', [organizationId]))?.n ?? 0;
  // Equal join times (one clock tick) fall back to the user id, which is time-ordered (lib/ids.ts).
  const rows = await q.all<MemberRow>(`${SELECT} WHERE m.organization_id = ? ORDER BY m.created_at, m.user_id LIMIT ? OFFSET ?`, [
    organizationId,
    page.limit,
    page.offset,
  ]);
  return { items: rows.map(toMember), total };
}

export async function getMember(q: Queryable, organizationId: string, userId: string): Promise<Member | null> {
  const row = await q.get<MemberRow>(`${SELECT} WHERE m.organization_id = ? AND m.user_id = ?`, [organizationId, userId]);
  return row ? toMember(row) : null;
}

export async function addMember(q: Queryable, organizationId: string, userId: string, role: Role, at: string): Promise<void> {
  await q.run('INSERT INTO memberships (user_id, organization_id, role, created_at) VALUES (?, ?, ?, ?)', [
    userId,
    organizationId,
    role,
    at,
  ]);
}

/*
 * Role changes, removals and transfers read the member and write in one transaction, so the
 * checks hold for the write (on SQLite the transaction serializes them, as the synchronous code
 * did; on PostgreSQL a concurrent change between read and write can still interleave).
 */

/**
 * Changes a member's role. Rules (docs/api-spec.md §11): nobody becomes or stops being the owner here
 * (that is a transfer); only the owner makes or unmakes admins; an API key (organizations:write,
 * checked by the route) counts as the owner's delegate.
 */
export async function changeRole(tx: Tx, organizationId: string, actor: Actor, userId: string, role: Role): Promise<Member> {
  const member = await getMember(tx, organizationId, userId);
  if (!member) throw notFound('Member');
  if (role === 'owner' || member.role === 'owner')
    throw new AppError('validation_error', 'role: the owner changes only by transfer (POST /v1/organizations/:id/transfer)');
  const actsAsOwner = actor.role === 'owner' || actor.userId === null;
  if (!actsAsOwner && (role === 'admin' || member.role === 'admin'))
    throw new AppError('permission_denied', 'Only the owner makes or unmakes admins');
  await tx.run('UPDATE memberships SET role = ? WHERE organization_id = ? AND user_id = ?', [role, organizationId, userId]);
  return { ...member, role };
}

/**
 * Removes a member (or the caller leaves); their sessions in this organization end at once, and
 * what they created is settled by `choice` (member-removal.ts): keys revoked and webhooks
 * disabled, or both transferred to the remover; pending invitations revoked either way.
 */
export async function removeMember(
  tx: Tx,
  organizationId: string,
  actor: Actor,
  userId: string,
  nowMs: number,
  choice: CreatedChoice = 'revoke',
): Promise<{ member: Member; outcome: RemovalOutcome }> {
  const at = new Date(nowMs).toISOString();
  const member = await getMember(tx, organizationId, userId);
  if (!member) throw notFound('Member');
  if (member.role === 'owner') throw new AppError('validation_error', 'The owner cannot be removed: transfer ownership first');
  const leaving = actor.userId === userId;
  const actsAsOwner = actor.role === 'owner' || actor.userId === null;
  if (!leaving && member.role === 'admin' && !actsAsOwner) throw new AppError('permission_denied', 'Only the owner removes admins');
  await tx.run('DELETE FROM memberships WHERE organization_id = ? AND user_id = ?', [organizationId, userId]);
  await revokeSessionsIn(tx, userId, organizationId, at);
  return { member, outcome: await settleCreated(tx, organizationId, actor, member, choice, nowMs) };
}

/** The target becomes the owner, the old owner an admin. */
export async function transferOwnership(
  tx: Tx,
  organizationId: string,
  ownerId: string,
  targetId: string,
): Promise<{ owner: Member; previousOwner: Member }> {
  if (ownerId === targetId) throw new AppError('validation_error', 'userId: you already own this organization');
  if (!(await getMember(tx, organizationId, targetId))) throw notFound('Member');
  await tx.run("UPDATE memberships SET role = 'admin' WHERE organization_id = ? AND user_id = ? AND role = 'owner'", [
    organizationId,
    ownerId,
  ]);
  await tx.run("UPDATE memberships SET role = 'owner' WHERE organization_id = ? AND user_id = ?", [organizationId, targetId]);
  return {
    owner: (await getMember(tx, organizationId, targetId)) as Member,
    previousOwner: (await getMember(tx, organizationId, ownerId)) as Member,
  };
}
