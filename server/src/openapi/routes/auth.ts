import { z } from 'zod';
import { loginSchema, registerSchema } from '../../auth/routes.js';
import { AUTHENTICATED, defineRoutes, PUBLIC } from '../registry.js';

const account = z.object({
  user: z.object({ id: z.string(), email: z.string(), name: z.string().nullable() }).loose(),
  organization: z.object({ id: z.string(), name: z.string(), plan: z.enum(['free', 'pro', 'enterprise']) }).loose(),
  token: z
    .string()
    .optional()
    .describe(
      'absent when the request came from the dashboard (X-Parley-CSRF: 1 from PUBLIC_URL): the session is then the parley_session cookie',
    ),
});
const tag = 'Auth';

/** docs/api-spec.md §4: accounts and user sessions. */
export const authRoutes = defineRoutes([
  {
    method: 'post',
    path: '/v1/auth/register',
    tag,
    summary: 'Register a user and a new organization',
    auth: PUBLIC,
    body: registerSchema,
    example: { email: 'ada@example.com', password: 'correct horse battery', name: 'Ada', organizationName: 'Acme' },
    success: { kind: 'envelope', status: 201, data: account },
    errors: [400, 403, 409, 413, 429],
  },
  {
    method: 'post',
    path: '/v1/auth/login',
    tag,
    summary: 'Log in: a user session token (30 days)',
    auth: PUBLIC,
    body: loginSchema,
    example: { email: 'ada@example.com', password: 'correct horse battery' },
    success: { kind: 'envelope', status: 200, data: account },
    errors: [400, 401, 403, 413, 429],
  },
  {
    method: 'post',
    path: '/v1/auth/logout',
    tag,
    summary: 'Revoke the presented user session token',
    auth: AUTHENTICATED,
    success: { kind: 'envelope', status: 200, data: z.object({ revoked: z.literal(true) }) },
    errors: [400, 401, 403, 429],
  },
]);
