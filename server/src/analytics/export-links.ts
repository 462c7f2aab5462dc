import crypto from 'node:crypto';
import { once } from 'node:events';
import { Router, type Response } from 'express';
import { z } from 'zod';
import type { Principal } from '../auth/permissions.js';
import { hashToken } from '../auth/tokens.js';
import type { AppContext } from '../context.js';
import type { Queryable } from '../storage/port.js';
import { notFound } from '../http/errors.js';
import { pathParams } from '../http/validate.js';
import { newId } from '../lib/ids.js';
import { parseJson } from '../lib/json.js';
import { analyticsFilterQuery, toConversationFilter, type ConversationFilter } from './filters.js';
import { exportRows, type ExportRow } from './service.js';

/** How long a download link works: long enough for the browser to follow it, too short to share. */
export const EXPORT_LINK_TTL_MS = 60_000;
/** Used and expired links are kept a day (for support), then deleted when a new link is made. */
const EXPORT_LINK_RETENTION_MS = 86_400_000;

export type ExportFormat = 'csv' | 'jsonl';

/** POST /v1/analytics/conversations/export-links: the format and the conversations list's filters. */
export const exportLinkSchema = z.strictObject({ format: z.enum(['csv', 'jsonl']), ...analyticsFilterQuery.shape });

const CSV_COLUMNS: (keyof ExportRow)[] = [
  'sessionId',
  'assistantId',
  'userId',
  'source',
  'messageId',
  'role',
  'content',
  'timestamp',
  'confidence',
  'rating',
  'channel',
];

/** RFC 4180 quoting, plus a leading ' for cells a spreadsheet would run as a formula. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let s = String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Streams every message of the filtered conversations as an attachment, in the list's order. */
export async function sendExport(
  res: Response,
  q: Queryable,
  filter: ConversationFilter,
  format: ExportFormat,
  nowMs: number,
): Promise<void> {
  const stamp = new Date(nowMs).toISOString().slice(0, 10);
  res.setHeader('Content-Type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8');
  res.setHeader('Content-Disposition', `attachment; filename="parley-conversations-${stamp}.${format}"`);
  if (format === 'csv') res.write(CSV_COLUMNS.join(',') + '\r\n');
  for await (const row of exportRows(q, filter)) {
    const line = format === 'csv' ? CSV_COLUMNS.map((c) => csvCell(row[c])).join(',') + '\r\n' : JSON.stringify(row) + '\n';
    // Respect backpressure so a large export never buffers whole in memory.
    if (!res.write(line)) await once(res, 'drain');
  }
  res.end();
}

/**
 * A single-use download link for the filtered export: `exp_` + 32 random bytes, stored as its
 * SHA-256, bound to the organization, the caller (user, or key) and the filters as resolved now
 * (a bound key's assistant included), valid EXPORT_LINK_TTL_MS.
 */
export async function createExportLink(
  ctx: AppContext,
  p: Principal,
  input: z.infer<typeof exportLinkSchema>,
): Promise<{ url: string; expiresAt: string }> {
  const { format, ...filters } = input;
  const filter = toConversationFilter(p, filters);
  const now = ctx.clock.now();
  const token = `exp_${crypto.randomBytes(32).toString('base64url')}`;
  const expiresAt = new Date(now + EXPORT_LINK_TTL_MS).toISOString();
  await ctx.storage.tx(async (tx) => {
    await tx.run('DELETE FROM export_links WHERE expires_at < ?', [new Date(now - EXPORT_LINK_RETENTION_MS).toISOString()]);
    await tx.run(
      `INSERT INTO export_links (id, token_hash, organization_id, user_id, api_key_id, format, filter, created_at, expires_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        newId('exl'),
        hashToken(token),
        p.organizationId,
        p.kind === 'user' ? p.userId : null,
        p.kind === 'api_key' ? p.credentialId : null,
        format,
        JSON.stringify(filter),
        new Date(now).toISOString(),
        expiresAt,
      ],
    );
  });
  return { url: `${ctx.config.publicUrl.replace(/\/+$/, '')}/v1/exports/${token}`, expiresAt };
}

interface LinkRow {
  organization_id: string;
  user_id: string | null;
  api_key_id: string | null;
  format: ExportFormat;
  filter: string;
}

/**
 * Takes the link: the conditional UPDATE admits exactly one download of a live link. Then the
 * binding must still hold: the user still a member, or the key still valid with analytics:read
 * (a link made just before a removal does not outlive it). Anything else is a plain 404.
 */
async function takeLink(ctx: AppContext, token: string): Promise<LinkRow | null> {
  const now = new Date(ctx.clock.now()).toISOString();
  const row = await ctx.storage.get<LinkRow>(
    `UPDATE export_links SET used_at = @now WHERE token_hash = @hash AND used_at IS NULL AND expires_at > @now
    RETURNING organization_id, user_id, api_key_id, format, filter`,
    { now, hash: hashToken(token) },
  );
  if (!row) return null;
  if (row.user_id !== null)
    return (await ctx.storage.get('SELECT 1 AS one FROM memberships WHERE user_id = ? AND organization_id = ?', [
      row.user_id,
      row.organization_id,
    ]))
      ? row
      : null;
  // The key's permissions are a JSON array: read here (no JSON functions in SQL).
  const key = await ctx.storage.get<{ permissions: string }>(
    `SELECT permissions FROM api_keys WHERE id = ? AND organization_id = ? AND revoked_at IS NULL
    AND (expires_at IS NULL OR expires_at > ?)`,
    [row.api_key_id, row.organization_id, now],
  );
  return key && parseJson<unknown[]>(key.permissions, []).includes('analytics:read') ? row : null;
}

/** GET /v1/exports/:token: public (the token is the credential), streamed as an attachment. */
export function exportDownloadRouter(ctx: AppContext): Router {
  const r = Router();
  r.get('/exports/:token', async (req, res) => {
    const { token } = pathParams(req, 'token');
    const link = /^exp_[A-Za-z0-9_-]{43}$/.test(token) ? await takeLink(ctx, token) : null;
    if (!link) throw notFound('Export link (used, expired or unknown)');
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Referrer-Policy', 'no-referrer');
    await sendExport(res, ctx.storage, JSON.parse(link.filter) as ConversationFilter, link.format, ctx.clock.now());
  });
  return r;
}
