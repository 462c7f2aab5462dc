import type { Request, Response } from 'express';
import { z } from 'zod';
import { principalOf } from '../http/auth.js';
import { AppError } from '../http/errors.js';
import { parseInput } from '../http/validate.js';

const isoDateOrDateTime = z.string().refine((v) => /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(v) && !Number.isNaN(Date.parse(v)), {
  message: 'must be an ISO 8601 date (2026-01-31) or date-time',
});

export const filterSchema = z.object({
  from: isoDateOrDateTime.optional(),
  to: isoDateOrDateTime.optional(),
  assistantId: z.string().min(1).max(64).optional(),
  userId: z.string().min(1).max(200).optional(),
  source: z.string().min(1).max(100).optional(),
  q: z.string().min(1).max(500).optional(),
});

/** Named SQL parameters for the conversation filters shared by every analytics route. */
export interface ConversationFilter { org: string; from: string | null; to: string | null; assistantId: string | null; userId: string | null; source: string | null; q: string | null }

export const CONVERSATION_WHERE = `c.organization_id = @org
  AND (@assistantId IS NULL OR c.assistant_id = @assistantId)
  AND (@from IS NULL OR c.started_at >= @from)
  AND (@to IS NULL OR c.started_at <= @to)
  AND (@userId IS NULL OR c.user_id = @userId)
  AND (@source IS NULL OR c.source = @source)
  AND (@q IS NULL OR EXISTS (SELECT 1 FROM messages mq WHERE mq.conversation_id = c.id AND mq.content LIKE @q ESCAPE '\\'))`;

const escapeLike = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A date-only `to` means the whole of that day (UTC). */
const endOf = (v: string): string => (v.length === 10 ? `${v}T23:59:59.999Z` : new Date(v).toISOString());
const startOf = (v: string): string => (v.length === 10 ? `${v}T00:00:00.000Z` : new Date(v).toISOString());

export function readConversationFilter(req: Request, res: Response): ConversationFilter {
  const p = principalOf(res);
  const { page: _p, limit: _l, format: _f, ...query } = req.query as Record<string, unknown>;
  const f = parseInput(filterSchema, query, 'query');
  if (p.assistantId && f.assistantId && f.assistantId !== p.assistantId) throw new AppError('resource_not_found', 'Assistant not found');
  const from = f.from ? startOf(f.from) : null;
  const to = f.to ? endOf(f.to) : null;
  if (from && to && from > to) throw new AppError('validation_error', 'from must not be after to');
  return {
    org: p.organizationId, from, to, assistantId: p.assistantId ?? f.assistantId ?? null, userId: f.userId ?? null, source: f.source ?? null,
    q: f.q ? `%${escapeLike(f.q)}%` : null,
  };
}
