import crypto from 'node:crypto';
import type { Role } from '../auth/permissions.js';
import { hashToken } from '../auth/tokens.js';
import type { Db } from '../db/open.js';
import { newId } from '../lib/ids.js';

/** An invitation link is good for this long (API.md §11). */
export const INVITATION_TTL_MS = 7 * 86_400_000;
/** Pending invitations per organization: a leaked admin session cannot mint links without bound. */
export const MAX_PENDING_INVITATIONS = 100;

export type InvitableRole = Exclude<Role, 'owner'>;

export interface Invitation { id: string; role: InvitableRole; email: string | null; createdAt: string; expiresAt: string }
interface InvitationRow {
  id: string; organization_id: string; role: InvitableRole; email: string | null; created_at: string; expires_at: string;
  accepted_at: string | null; revoked_at: string | null;
}

const toInvitation = (r: InvitationRow): Invitation => ({ id: r.id, role: r.role, email: r.email, createdAt: r.created_at, expiresAt: r.expires_at });

/** `inv_` + 32 random bytes: as unguessable as a session token, and shown once. */
export function newInvitationToken(): string {
  return `inv_${crypto.randomBytes(32).toString('base64url')}`;
}

const PENDING = 'accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ?';

export function createInvitation(db: Db, input: { organizationId: string; role: InvitableRole; email: string | null; invitedBy: string | null }, nowMs: number): Invitation & { token: string } {
  const token = newInvitationToken();
  const id = newId('inv');
  const createdAt = new Date(nowMs).toISOString();
  const expiresAt = new Date(nowMs + INVITATION_TTL_MS).toISOString();
  db.prepare(`INSERT INTO invitations (id, organization_id, token_hash, role, email, invited_by, created_at, expires_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)`).run(id, input.organizationId, hashToken(token), input.role, input.email, input.invitedBy, createdAt, expiresAt);
  return { id, role: input.role, email: input.email, createdAt, expiresAt, token };
}

export function countPendingInvitations(db: Db, organizationId: string, nowMs: number): number {
  return (db.prepare(`SELECT count(*) AS n FROM invitations WHERE organization_id = ? AND ${PENDING}`).get(organizationId, new Date(nowMs).toISOString()) as { n: number }).n;
}

/** Pending invitations (not accepted, revoked or expired), newest first; never the token. */
export function listPendingInvitations(db: Db, organizationId: string, nowMs: number, page: { limit: number; offset: number }): { items: Invitation[]; total: number } {
  const now = new Date(nowMs).toISOString();
  const rows = db.prepare<[string, string, number, number], InvitationRow>(`SELECT * FROM invitations WHERE organization_id = ? AND ${PENDING}
    ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?`).all(organizationId, now, page.limit, page.offset);
  return { items: rows.map(toInvitation), total: countPendingInvitations(db, organizationId, nowMs) };
}

export function revokeInvitation(db: Db, organizationId: string, id: string, nowMs: number): boolean {
  const now = new Date(nowMs).toISOString();
  return db.prepare(`UPDATE invitations SET revoked_at = ? WHERE id = ? AND organization_id = ? AND ${PENDING}`).run(now, id, organizationId, now).changes > 0;
}

/** A pending invitation by its token, with its organization; null when unknown, used, revoked or expired. */
export function findPendingInvitation(db: Db, token: string, nowMs: number): (Invitation & { organization: { id: string; name: string } }) | null {
  const row = db.prepare<[string, string], InvitationRow & { org_name: string }>(`SELECT i.*, o.name AS org_name FROM invitations i
    JOIN organizations o ON o.id = i.organization_id WHERE i.token_hash = ? AND ${PENDING.replaceAll(/(accepted_at|revoked_at|expires_at)/g, 'i.$1')}`)
    .get(hashToken(token), new Date(nowMs).toISOString());
  return row ? { ...toInvitation(row), organization: { id: row.organization_id, name: row.org_name } } : null;
}

/**
 * Marks the invitation used, if it still is pending: the conditional update is the single-use
 * guarantee (two accepts racing: one changes the row, the other gets false). Call inside the
 * transaction that adds the membership.
 */
export function consumeInvitation(db: Db, id: string, userId: string, nowMs: number): boolean {
  const now = new Date(nowMs).toISOString();
  return db.prepare(`UPDATE invitations SET accepted_at = ?, accepted_by = ? WHERE id = ? AND ${PENDING}`).run(now, userId, id, now).changes > 0;
}
