import crypto from 'node:crypto';
import type { Role } from '../auth/permissions.js';
import { hashToken } from '../auth/tokens.js';
import { newId } from '../lib/ids.js';
import type { Queryable, Tx } from '../storage/port.js';

/** An invitation link is good for this long (docs/api-spec.md §11). */
export const INVITATION_TTL_MS = 7 * 86_400_000;
/** Pending invitations per organization: a leaked admin session cannot mint links without bound. */
export const MAX_PENDING_INVITATIONS = 100;

export type InvitableRole = Exclude<Role, 'owner'>;

export interface Invitation {
  id: string;
  role: InvitableRole;
  email: string | null;
  createdAt: string;
  expiresAt: string;
}
interface InvitationRow {
  id: string;
  organization_id: string;
  role: InvitableRole;
  email: string | null;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
  revoked_at: string | null;
}

const toInvitation = (r: InvitationRow): Invitation => ({
  id: r.id,
  role: r.role,
  email: r.email,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
});

/** `inv_` + 32 random bytes: as unguessable as a session token, and shown once. */
export function newInvitationToken(): string {
  return `inv_${crypto.randomBytes(32).toString('base64url')}`;
}

const PENDING = 'accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ?';

export async function createInvitation(
  q: Queryable,
  input: { organizationId: string; role: InvitableRole; email: string | null; invitedBy: string | null },
  nowMs: number,
): Promise<Invitation & { token: string }> {
  const token = newInvitationToken();
  const id = newId('inv');
  const createdAt = new Date(nowMs).toISOString();
  const expiresAt = new Date(nowMs + INVITATION_TTL_MS).toISOString();
  await q.run(
    `INSERT INTO invitations (id, organization_id, token_hash, role, email, invited_by, created_at, expires_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    [id, input.organizationId, hashToken(token), input.role, input.email, input.invitedBy, createdAt, expiresAt],
  );
  return { id, role: input.role, email: input.email, createdAt, expiresAt, token };
}

export async function countPendingInvitations(q: Queryable, organizationId: string, nowMs: number): Promise<number> {
  return (
    (
      await q.get<{ n: number }>(`SELECT COUNT(*) AS n FROM invitations WHERE organization_id = ? AND ${PENDING}`, [
        organizationId,
        new Date(nowMs).toISOString(),
      ])
    )?.n ?? 0
  );
}

/** Pending invitations (not accepted, revoked or expired), newest first; never the token. */
export async function listPendingInvitations(
  q: Queryable,
  organizationId: string,
  nowMs: number,
  page: { limit: number; offset: number },
): Promise<{ items: Invitation[]; total: number }> {
  const now = new Date(nowMs).toISOString();
  // Ids are time-ordered (lib/ids.ts): the tie-break on equal created_at is the creation order.
  const rows = await q.all<InvitationRow>(
    `SELECT * FROM invitations WHERE organization_id = ? AND ${PENDING}
    ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
    [organizationId, now, page.limit, page.offset],
  );
  return { items: rows.map(toInvitation), total: await countPendingInvitations(q, organizationId, nowMs) };
}

export async function revokeInvitation(q: Queryable, organizationId: string, id: string, nowMs: number): Promise<boolean> {
  const now = new Date(nowMs).toISOString();
  return (
    (
      await q.run(`UPDATE invitations SET revoked_at = ? WHERE id = ? AND organization_id = ? AND ${PENDING}`, [
        now,
        id,
        organizationId,
        now,
      ])
    ).changes > 0
  );
}

/** A pending invitation by its token, with its organization; null when unknown, used, revoked or expired. */
export async function findPendingInvitation(
  q: Queryable,
  token: string,
  nowMs: number,
): Promise<(Invitation & { organization: { id: string; name: string } }) | null> {
  const row = await q.get<InvitationRow & { org_name: string }>(
    `SELECT i.*, o.name AS org_name FROM invitations i
    JOIN organizations o ON o.id = i.organization_id WHERE i.token_hash = ? AND ${PENDING.replaceAll(/(accepted_at|revoked_at|expires_at)/g, 'i.$1')}`,
    [hashToken(token), new Date(nowMs).toISOString()],
  );
  return row ? { ...toInvitation(row), organization: { id: row.organization_id, name: row.org_name } } : null;
}

/**
 * Marks the invitation used, if it still is pending: the conditional update is the single-use
 * guarantee (two accepts racing: one changes the row, the other gets false). Call inside the
 * transaction that adds the membership.
 */
export async function consumeInvitation(tx: Tx, id: string, userId: string, nowMs: number): Promise<boolean> {
  const now = new Date(nowMs).toISOString();
  return (
    (await tx.run(`UPDATE invitations SET accepted_at = ?, accepted_by = ? WHERE id = ? AND ${PENDING}`, [now, userId, id, now])).changes >
    0
  );
}
