import { z } from 'zod';
import { EXPORT_LINK_TTL_MS, exportLinkSchema } from '../../analytics/export-links.js';
import { AUTH_ERRORS, AUTHENTICATED, defineRoutes, PUBLIC, pathParams } from '../registry.js';

/* One-time download links for the conversations export (the dashboard streams a file of any size to disk). */

const ttl = `${EXPORT_LINK_TTL_MS / 1000} s`;

export const exportLinkRoutes = defineRoutes([
  {
    method: 'post',
    path: '/v1/analytics/conversations/export-links',
    tag: 'Analytics',
    summary: 'A one-time download link for the conversations export',
    auth: AUTHENTICATED,
    permission: 'analytics:read',
    body: exportLinkSchema,
    description: `Takes the format and the filters of GET /v1/analytics/conversations (as strings, like the query). The link is single use, valid ${ttl}, bound to the organization, the caller (user or key) and these filters; its token is the credential: the browser can follow it with no cookie or header and stream the file to disk.`,
    example: { format: 'csv', from: '2026-01-01', to: '2026-01-31', channel: 'widget,slack', rating: 'down' },
    success: {
      kind: 'envelope',
      status: 201,
      data: z.object({ url: z.string().describe('PUBLIC_URL/v1/exports/<token>'), expiresAt: z.string() }),
    },
    errors: [400, ...AUTH_ERRORS, 404, 413],
  },
  {
    method: 'get',
    path: '/v1/exports/{token}',
    tag: 'Analytics',
    summary: 'Download an export by its one-time link (public: the token is the credential)',
    auth: PUBLIC,
    params: pathParams('token'),
    description: `Streams every message of the link's conversations as an attachment (CSV or JSONL, as GET /v1/analytics/conversations/export). Used, expired (${ttl}), unknown, or the creator no longer a member / the key revoked: 404.`,
    success: { kind: 'file', status: 200, contentTypes: ['text/csv; charset=utf-8', 'application/x-ndjson; charset=utf-8'] },
    errors: [400, 404],
  },
]);
