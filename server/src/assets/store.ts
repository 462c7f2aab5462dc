import crypto from 'node:crypto';
import { newId } from '../lib/ids.js';
import type { Queryable, Tx } from '../storage/port.js';
import type { ImageType } from './images.js';

export interface Asset {
  id: string;
  organizationId: string;
  contentType: ImageType;
  bytes: number;
  sha256: string;
  data: Buffer;
  createdAt: string;
}
interface AssetRow {
  id: string;
  organization_id: string;
  content_type: ImageType;
  bytes: number;
  sha256: string;
  data: Buffer;
  created_at: string;
}

const SQL = {
  insert: 'INSERT INTO assets (id, organization_id, content_type, bytes, sha256, data, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  // An id is 20 fixed characters, so the LIKE cannot match another (its `_` matching any one
  // character, or SQLite's case-insensitive LIKE, can only keep an asset, never delete a used one).
  used: "SELECT 1 AS used FROM assistants WHERE organization_id = ? AND config LIKE '%' || CAST(? AS TEXT) || '%' LIMIT 1",
  delete: 'DELETE FROM assets WHERE id = ? AND organization_id = ?',
} as const;

/** Stores an upload; write it in the transaction that points an assistant at it. */
export async function insertAsset(tx: Tx, organizationId: string, contentType: ImageType, data: Buffer, at: string): Promise<Asset> {
  const asset: Asset = {
    id: newId('ast'),
    organizationId,
    contentType,
    bytes: data.length,
    sha256: crypto.createHash('sha256').update(data).digest('hex'),
    data,
    createdAt: at,
  };
  await tx.run(SQL.insert, [asset.id, organizationId, contentType, asset.bytes, asset.sha256, data, at]);
  return asset;
}

export async function getAsset(q: Queryable, id: string): Promise<Asset | null> {
  const row = await q.get<AssetRow>('SELECT id, organization_id, content_type, bytes, sha256, data, created_at FROM assets WHERE id = ?', [
    id,
  ]);
  return row
    ? {
        id: row.id,
        organizationId: row.organization_id,
        contentType: row.content_type,
        bytes: row.bytes,
        sha256: row.sha256,
        data: row.data,
        createdAt: row.created_at,
      }
    : null;
}

/** Deletes an asset no assistant of the organization points at any more (an avatar replaced): uploads do not pile up. */
export async function deleteAssetIfUnused(tx: Tx, organizationId: string, id: string): Promise<boolean> {
  if (await tx.get(SQL.used, [organizationId, id])) return false;
  return (await tx.run(SQL.delete, [id, organizationId])).changes > 0;
}
