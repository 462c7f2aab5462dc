import { keysCreatedBy } from '../api-keys/service.js';
import { AppError } from '../http/errors.js';
import { newId } from '../lib/ids.js';
import { parseJson } from '../lib/json.js';
import type { Queryable, Tx } from '../storage/port.js';
import { webhooksCreatedBy } from '../webhooks/store.js';
import type { Actor, Member } from './member.js';

/*
 * What a removed member leaves behind (issue 24). Their sessions end (members.ts); what they
 * created in the organization would otherwise outlive them: API keys that keep reading and
 * minting, invitation links that keep admitting people, webhooks that keep delivering to an
 * address they chose. By default all of it stops: keys revoked, pending invitations revoked,
 * webhooks disabled (kept, so nothing configured is lost; an admin re-enables one after checking
 * its URL). The remover may instead keep the keys and webhooks by taking them over: they are then
 * recorded as the remover's, and the audit log says so. Pending invitations are always revoked:
 * an invitation is the inviter's consent to admit someone, and that consent left with them.
 */

/** What to do with the removed member's keys and webhooks. */
export type CreatedChoice = 'revoke' | 'transfer';
export const CREATED_CHOICES = ['revoke', 'transfer'] as const;

export interface CreatedItems {
  keys: Array<{ id: string; name: string; last4: string }>;
  webhooks: Array<{ id: string; url: string; enabled: boolean }>;
  invitations: Array<{ id: string; role: string; email: string | null; expiresAt: string }>;
}

export type Outcome = 'revoked' | 'transferred' | 'disabled';
export interface RemovalOutcome {
  keys: Array<{ id: string; name: string; outcome: Outcome }>;
  webhooks: Array<{ id: string; url: string; outcome: Outcome }>;
  invitations: Array<{ id: string; email: string | null; outcome: 'revoked' }>;
}

/** The member's live keys, their webhooks and pending invitations in the organization. */
export async function createdByMember(q: Queryable, organizationId: string, userId: string, nowMs: number): Promise<CreatedItems> {
  const [keys, webhooks, invitations] = await Promise.all([
    keysCreatedBy(q, organizationId, userId),
    webhooksCreatedBy(q, organizationId, userId),
    q.all<{ id: string; role: string; email: string | null; expires_at: string }>(
      `SELECT id, role, email, expires_at
      FROM invitations WHERE organization_id = ? AND invited_by = ?
        AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ?
      ORDER BY created_at, id`,
      [organizationId, userId, new Date(nowMs).toISOString()],
    ),
  ]);
  return {
    keys,
    webhooks: webhooks.map((w) => ({ id: w.id, url: w.url, enabled: w.enabled === 1 })),
    invitations: invitations.map((i) => ({ id: i.id, role: i.role, email: i.email, expiresAt: i.expires_at })),
  };
}

/**
 * Applies the choice to what the member created, in the removal's transaction. Transfer needs a
 * signed-in remover other than the member (an API key or the member leaving has nobody to hand to).
 */
export async function settleCreated(
  tx: Tx,
  organizationId: string,
  actor: Actor,
  member: Member,
  choice: CreatedChoice,
  nowMs: number,
): Promise<RemovalOutcome> {
  const heir = actor.userId;
  if (choice === 'transfer' && (heir === null || heir === member.userId)) {
    throw new AppError(
      'validation_error',
      'created: "transfer" hands the keys and webhooks to you, ' + 'so it needs a signed-in member other than the one leaving',
    );
  }
  const at = new Date(nowMs).toISOString();
  const items = await createdByMember(tx, organizationId, member.userId, nowMs);
  const byMember = [organizationId, member.userId];
  if (choice === 'transfer') {
    await tx.run(
      `UPDATE api_keys SET created_by = ?
      WHERE organization_id = ? AND created_by = ? AND revoked_at IS NULL`,
      [heir, ...byMember],
    );
    await tx.run('UPDATE webhook_endpoints SET created_by = ? WHERE organization_id = ? AND created_by = ?', [heir, ...byMember]);
  } else {
    await tx.run(
      `UPDATE api_keys SET revoked_at = ?
      WHERE organization_id = ? AND created_by = ? AND revoked_at IS NULL`,
      [at, ...byMember],
    );
    await tx.run(
      `UPDATE webhook_endpoints SET enabled = 0, disabled_reason = 'manual', disabled_at = ?, updated_at = ?
      WHERE organization_id = ? AND created_by = ? AND enabled = 1`,
      [at, at, ...byMember],
    );
  }
  await tx.run(
    `UPDATE invitations SET revoked_at = ? WHERE organization_id = ? AND invited_by = ?
    AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ?`,
    [at, ...byMember, at],
  );
  const kept: Outcome = 'transferred';
  return {
    keys: items.keys.map((k) => ({ id: k.id, name: k.name, outcome: choice === 'transfer' ? kept : 'revoked' })),
    webhooks: items.webhooks.map((w) => ({ id: w.id, url: w.url, outcome: choice === 'transfer' ? kept : 'disabled' })),
    invitations: items.invitations.map((i) => ({ id: i.id, email: i.email, outcome: 'revoked' })),
  };
}

export interface MemberAuditEntry {
  id: string;
  action: 'member_removed' | 'member_left';
  actorUserId: string | null;
  actorApiKeyId: string | null;
  userId: string;
  email: string | null;
  details: RemovalOutcome & { choice: CreatedChoice };
  createdAt: string;
}
interface AuditRow {
  id: string;
  action: MemberAuditEntry['action'];
  actor_user_id: string | null;
  actor_api_key_id: string | null;
  subject_user_id: string;
  subject_email: string | null;
  details: string;
  created_at: string;
}

/** Appends the removal to the organization's log, in the removal's transaction. */
export async function recordRemoval(
  tx: Tx,
  e: {
    organizationId: string;
    actorUserId: string | null;
    actorApiKeyId: string | null;
    member: Member;
    choice: CreatedChoice;
    outcome: RemovalOutcome;
    at: string;
  },
): Promise<void> {
  const action = e.actorUserId === e.member.userId ? 'member_left' : 'member_removed';
  await tx.run(
    `INSERT INTO member_audit (id, organization_id, actor_user_id, actor_api_key_id, action,
    subject_user_id, subject_email, details, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      newId('aud'),
      e.organizationId,
      e.actorUserId,
      e.actorApiKeyId,
      action,
      e.member.userId,
      e.member.email,
      JSON.stringify({ choice: e.choice, ...e.outcome }),
      e.at,
    ],
  );
}

/** The organization's member log, newest first. */
export async function listMemberAudit(
  q: Queryable,
  organizationId: string,
  page: { limit: number; offset: number },
): Promise<{ items: MemberAuditEntry[]; total: number }> {
  const total = (await q.get<{ n: number }>('SELECT COUNT(*) AS n FROM member_audit WHERE organization_id = ?', [organizationId]))?.n ?? 0;
  const rows = await q.all<AuditRow>(
    `SELECT * FROM member_audit WHERE organization_id = ?
    ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
    [organizationId, page.limit, page.offset],
  );
  const empty = { choice: 'revoke' as const, keys: [], webhooks: [], invitations: [] };
  return {
    items: rows.map((r) => ({
      id: r.id,
      action: r.action,
      actorUserId: r.actor_user_id,
      actorApiKeyId: r.actor_api_key_id,
      userId: r.subject_user_id,
      email: r.subject_email,
      details: { ...empty, ...parseJson<Partial<MemberAuditEntry['details']>>(r.details, {}) },
      createdAt: r.created_at,
    })),
    total,
  };
}
