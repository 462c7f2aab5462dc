import { z } from 'zod';
import { patchSchema } from '../../organizations/routes.js';
import { AUTH_ERRORS, AUTHENTICATED, defineRoutes, ID_ERRORS, pageQuery, pathParams } from '../registry.js';

const organization = z
  .object({ id: z.string(), name: z.string(), plan: z.enum(['free', 'pro', 'enterprise']), createdAt: z.string() })
  .loose();
const tag = 'Organizations';

/** docs/api-spec.md §5–6: organizations and plans. */
export const organizationRoutes = defineRoutes([
  {
    method: 'get',
    path: '/v1/organizations',
    tag,
    summary: 'List the organizations the caller belongs to',
    auth: AUTHENTICATED,
    query: pageQuery,
    success: { kind: 'paginated', status: 200, item: organization },
    errors: [400, ...AUTH_ERRORS],
  },
  {
    method: 'patch',
    path: '/v1/organizations/{id}',
    tag,
    summary: 'Rename the organization or change its plan',
    auth: AUTHENTICATED,
    permission: 'organizations:write',
    params: pathParams('id'),
    body: patchSchema,
    example: { name: 'Acme Inc.' },
    success: { kind: 'envelope', status: 200, data: organization },
    errors: [400, ...AUTH_ERRORS, ...ID_ERRORS, 413],
  },
]);
