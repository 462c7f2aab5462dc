import type { Plan } from '../auth/permissions.js';
import { newId } from '../lib/ids.js';
import type { Queryable, Tx } from '../storage/port.js';

export interface Organization {
  id: string;
  name: string;
  plan: Plan;
  createdAt: string;
}
interface OrgRow {
  id: string;
  name: string;
  plan: Plan;
  created_at: string;
}

export const toOrganization = (r: OrgRow): Organization => ({ id: r.id, name: r.name, plan: r.plan, createdAt: r.created_at });

/** A new organization (free plan). Write it in the transaction that adds its first member. */
export async function createOrganization(tx: Tx, name: string, at: string): Promise<Organization> {
  const org: Organization = { id: newId('org'), name, plan: 'free', createdAt: at };
  await tx.run('INSERT INTO organizations (id, name, plan, created_at) VALUES (?, ?, ?, ?)', [org.id, org.name, org.plan, at]);
  return org;
}

export async function getOrganization(q: Queryable, id: string): Promise<Organization | null> {
  const row = await q.get<OrgRow>('SELECT id, name, plan, created_at FROM organizations WHERE id = ?', [id]);
  return row ? toOrganization(row) : null;
}

/** Organizations a user belongs to; an API key belongs to exactly its own. */
export async function listOrganizationsFor(
  q: Queryable,
  p: { userId: string | null; organizationId: string },
  page: { limit: number; offset: number },
): Promise<{ items: Organization[]; total: number }> {
  if (p.userId === null) {
    const org = await getOrganization(q, p.organizationId);
    const all = org ? [org] : [];
    return { items: all.slice(page.offset, page.offset + page.limit), total: all.length };
  }
  const total = (await q.get<{ n: number }>('SELECT COUNT(*) AS n FROM memberships WHERE user_id = ?', [p.userId]))?.n ?? 0;
  // Ids are time-ordered (lib/ids.ts): the tie-break on equal created_at is the creation order.
  const rows = await q.all<OrgRow>(
    `SELECT o.id, o.name, o.plan, o.created_at FROM organizations o JOIN memberships m ON m.organization_id = o.id
    WHERE m.user_id = ? ORDER BY o.created_at DESC, o.id DESC LIMIT ? OFFSET ?`,
    [p.userId, page.limit, page.offset],
  );
  return { items: rows.map(toOrganization), total };
}

export async function updateOrganization(
  q: Queryable,
  id: string,
  patch: { name?: string | undefined; plan?: Plan | undefined },
): Promise<Organization | null> {
  const current = await getOrganization(q, id);
  if (!current) return null;
  const next = { ...current, ...(patch.name !== undefined && { name: patch.name }), ...(patch.plan !== undefined && { plan: patch.plan }) };
  await q.run('UPDATE organizations SET name = ?, plan = ? WHERE id = ?', [next.name, next.plan, id]);
  return next;
}
