import crypto from 'node:crypto';
import type { Db } from '../db/open.js';
import { newId } from '../lib/ids.js';
import type { ImageType } from './images.js';

export interface Asset { id: string; organizationId: string; contentType: ImageType; bytes: number; sha256: string; data: Buffer; createdAt: string }

export function insertAsset(db: Db, organizationId: string, contentType: ImageType, data: Buffer, at: string): Asset {
  const id = newId('ast');
  const sha256 = crypto.createHash('sha256').update(data).digest('hex');
  db.prepare('INSERT INTO assets (id, organization_id, content_type, bytes, sha256, data, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
    .run(id, organizationId, contentType, data.length, sha256, data, at);
  return { id, organizationId, contentType, bytes: data.length, sha256, data, createdAt: at };
}

export function getAsset(db: Db, id: string): Asset | null {
  const row = db.prepare<[string], { id: string; organization_id: string; content_type: ImageType; bytes: number; sha256: string; data: Buffer; created_at: string }>(
    'SELECT * FROM assets WHERE id = ?').get(id);
  return row ? { id: row.id, organizationId: row.organization_id, contentType: row.content_type, bytes: row.bytes, sha256: row.sha256, data: row.data, createdAt: row.created_at } : null;
}

/**
 * Deletes an asset no assistant of the organization points at any more (an avatar replaced):
 * uploads do not pile up. An id is 20 fixed characters, so the LIKE cannot match another.
 */
export function deleteAssetIfUnused(db: Db, organizationId: string, id: string): boolean {
  const used = db.prepare("SELECT 1 FROM assistants WHERE organization_id = ? AND config LIKE '%' || ? || '%' LIMIT 1").get(organizationId, id);
  return used ? false : db.prepare('DELETE FROM assets WHERE id = ? AND organization_id = ?').run(id, organizationId).changes > 0;
}
