import type { Request, Response } from 'express';
import { AppError } from './errors.js';

export interface Page {
  page: number;
  limit: number;
  offset: number;
}

function readInt(req: Request, name: string, fallback: number, min: number, max: number): number {
  const raw = req.query[name];
  if (raw === undefined) return fallback;
  if (typeof raw !== 'string' || !/^\d+$/.test(raw))
    throw new AppError('validation_error', `${name} must be an integer between ${min} and ${max}`);
  const n = Number(raw);
  if (n < min || n > max) throw new AppError('validation_error', `${name} must be an integer between ${min} and ${max}`);
  return n;
}

/** `page` ≥ 1 (default 1), `limit` 1..100 (default 20): docs/api-spec.md §3. */
export function readPage(req: Request): Page {
  const page = readInt(req, 'page', 1, 1, Number.MAX_SAFE_INTEGER);
  const limit = readInt(req, 'limit', 20, 1, 100);
  return { page, limit, offset: (page - 1) * limit };
}

export function sendPage<T>(res: Response, items: T[], total: number, page: Page): void {
  res.json({
    status: 'success',
    data: items,
    pagination: { total, page: page.page, limit: page.limit, pages: Math.ceil(total / page.limit) },
  });
}

export function sendData(res: Response, data: unknown, status = 200): void {
  res.status(status).json({ status: 'success', data });
}
