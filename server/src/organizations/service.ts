import type { Plan } from '../auth/permissions.js';
import type { Db } from '../db/open.js';
import { newId } from '../lib/ids.js';

export interface Organization { id: string; name: string; plan: Plan; createdAt: string }
interface OrgRow { id: string; name: string; plan: Plan; created_at: string }

export const toOrganization = (r: OrgRow): Organization => ({ id: r.id, name: r.name, plan: r.plan, createdAt: r.created_at });

export function createOrganization(db: Db, name: string, at: string): Organization {
  const id = newId('org');
  db.prepare('INSERT INTO organizations (id, name, plan, created_at) VALUES (?, ?, ?, ?)').run(id, name, 'free', at);
  return { id, name, plan: 'free', createdAt: at };
}

export function getOrganization(db: Db, id: string): Organization | null {
  const row = db.prepare<[string], OrgRow>('SELECT * FROM organizations WHERE id = ?').get(id);
  return row ? toOrganization(row) : null;
}

/** Organizations a user belongs to; an API key belongs to exactly its own. */
export function listOrganizationsFor(db: Db, p: { userId: string | null; organizationId: string }, page: { limit: number; offset: number }): { items: Organization[]; total: number } {
  if (p.userId === null) {
    const org = getOrganization(db, p.organizationId);
    const all = org ? [org] : [];
    return { items: all.slice(page.offset, page.offset + page.limit), total: all.length };
  }
  const total = (db.prepare('SELECT count(*) AS n FROM memberships WHERE user_id = ?').get(p.userId) as { n: number }).n;
  const rows = db
    .prepare<[string, number, number], OrgRow>(`SELECT o.* FROM organizations o JOIN memberships m ON m.organization_id = o.id
      WHERE m.user_id = ? ORDER BY o.created_at DESC, o.rowid DESC LIMIT ? OFFSET ?`)
    .all(p.userId, page.limit, page.offset);
  return { items: rows.map(toOrganization), total };
}

export function updateOrganization(db: Db, id: string, patch: { name?: string | undefined; plan?: Plan | undefined }): Organization | null {
  const current = getOrganization(db, id);
  if (!current) return null;
  const next = { ...current, ...(patch.name !== undefined && { name: patch.name }), ...(patch.plan !== undefined && { plan: patch.plan }) };
  db.prepare('UPDATE organizations SET name = ?, plan = ? WHERE id = ?').run(next.name, next.plan, id);
  return next;
}
