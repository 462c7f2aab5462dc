import { once } from 'node:events';
import { Router } from 'express';
import type { AppContext } from '../context.js';
import { requirePermission } from '../http/auth.js';
import { AppError } from '../http/errors.js';
import { readPage, sendData, sendPage } from '../http/pagination.js';
import { readConversationFilter } from './filters.js';
import { computeMetrics, exportRows, listConversations, listKnowledgeGaps, type ExportRow } from './service.js';

const CSV_COLUMNS: (keyof ExportRow)[] = ['sessionId', 'assistantId', 'userId', 'source', 'messageId', 'role', 'content', 'timestamp', 'confidence', 'rating'];

/** RFC 4180 quoting, plus a leading ' for cells a spreadsheet would run as a formula. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let s = String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function analyticsRouter(ctx: AppContext): Router {
  const r = Router();
  r.use('/analytics', requirePermission('analytics:read'));

  r.get('/analytics/conversations', (req, res) => {
    const page = readPage(req);
    const { items, total } = listConversations(ctx.db, readConversationFilter(req, res), page);
    sendPage(res, items, total, page);
  });

  r.get('/analytics/conversations/export', async (req, res) => {
    const format = req.query.format ?? 'csv';
    if (format !== 'csv' && format !== 'jsonl') throw new AppError('validation_error', 'format must be csv or jsonl');
    const filter = readConversationFilter(req, res);
    const stamp = new Date(ctx.clock.now()).toISOString().slice(0, 10);
    res.setHeader('Content-Type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="parley-conversations-${stamp}.${format}"`);
    if (format === 'csv') res.write(CSV_COLUMNS.join(',') + '\r\n');
    for (const row of exportRows(ctx.db, filter)) {
      const line = format === 'csv' ? CSV_COLUMNS.map((c) => csvCell(row[c])).join(',') + '\r\n' : JSON.stringify(row) + '\n';
      // Respect backpressure so a large export never buffers whole in memory.
      if (!res.write(line)) await once(res, 'drain');
    }
    res.end();
  });

  r.get('/analytics/metrics', (req, res) => {
    sendData(res, computeMetrics(ctx.db, readConversationFilter(req, res)));
  });

  r.get('/analytics/knowledge-gaps', (req, res) => {
    const page = readPage(req);
    const { items, total } = listKnowledgeGaps(ctx.db, readConversationFilter(req, res), page);
    sendPage(res, items, total, page);
  });

  return r;
}
