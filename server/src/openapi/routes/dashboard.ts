import { z } from 'zod';
import { templateTestSchema, textsQuerySchema } from '../../assistants/extras-routes.js';
import { passwordSchema, profileSchema, switchSchema } from '../../auth/routes.js';
import { ROLES } from '../../auth/permissions.js';
import { acceptInvitationSchema } from '../../organizations/invitations-public.js';
import { createInvitationSchema, memberRoleSchema, removeMemberQuery, transferSchema } from '../../organizations/members-routes.js';
import { AUTH_ERRORS, AUTHENTICATED, defineRoutes, ID_ERRORS, pageQuery, pathParams, PUBLIC } from '../registry.js';
import { CONNECTOR_TEXT_KEYS, DEFAULT_MESSAGE_KEYS, LOCALIZED_TEXT_KEYS, WIDGET_TEXT_KEYS } from '../../i18n/texts.js';

const textStrings = z.object(Object.fromEntries([...WIDGET_TEXT_KEYS, ...CONNECTOR_TEXT_KEYS].map((k) => [k, z.string()])));
const assistantTextsData = z.object({
  language: z.string().describe("The assistant's language tag"),
  textLanguage: z.string().describe("The language of these texts: the tag's own language, or en when Parley has no texts for it"),
  dir: z.enum(['ltr', 'rtl']),
  strings: textStrings.describe(
    "With the owner's widget.strings; `{name}`, `{percent}`, `{example}`, `{topics}`, `{user}`, `{question}`, `{command}` are filled in by whoever shows the text",
  ),
  defaults: textStrings.describe("The language's own texts, without the owner's"),
  messages: z
    .object(Object.fromEntries(DEFAULT_MESSAGE_KEYS.map((k) => [k, z.string()])))
    .describe("The language's default fallback, handoff and welcome messages: what an assistant that kept the defaults shows"),
  localizations: z
    .object(Object.fromEntries(LOCALIZED_TEXT_KEYS.map((k) => [k, z.record(z.string(), z.string())])))
    .describe("Every language's text (by language) of what a platform shows in each reader's own language: Discord's command descriptions"),
});

/**
 * Routes added for the dashboard (issue 12, docs/api-spec.md §11): the caller's account, members, roles
 * and invitations, assistant helpers (template test, avatar upload, public assets, providers),
 * document chunks and webhook redelivery. Owned by the dashboard-server work.
 */

const user = z.object({ id: z.string(), email: z.string(), name: z.string().nullable() });
const role = z.enum(ROLES);
const organization = z.object({ id: z.string(), name: z.string(), plan: z.enum(['free', 'pro', 'enterprise']) }).loose();
const me = z.object({
  user: user.nullable().describe('null for an API key'),
  organization: organization.extend({ limits: z.object({ perMinute: z.number(), perDay: z.number() }).describe("the plan's limits") }),
  limits: z
    .object({ perMinute: z.number(), perDay: z.number() })
    .describe("the credential's own limits: a key may lower the plan's; a dashboard (cookie) session has interactive ones"),
  role: role.nullable().describe('the member role of a user session; null for an API key'),
  permissions: z.array(z.string()).describe('API-key permission names the credential holds'),
});
const member = z.object({ userId: z.string(), email: z.string(), name: z.string().nullable(), role, createdAt: z.string() });
const invitation = z.object({
  id: z.string(),
  role: z.enum(['admin', 'editor', 'viewer']),
  email: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
});
const session = z.object({
  user,
  organization,
  role: z.enum(['admin', 'editor', 'viewer']),
  token: z.string().optional().describe('absent when the dashboard got the session as the httpOnly cookie'),
});
const templateMatch = z.object({
  match: z
    .object({ id: z.string().nullable(), trigger: z.string(), match: z.enum(['exact', 'contains', 'regex']), response: z.string() })
    .nullable(),
});
const chunk = z.object({
  id: z.string(),
  ordinal: z.int(),
  heading: z.string().nullable(),
  text: z.string(),
  page: z.int().nullable(),
  url: z.string().nullable(),
});
const provider = z.object({
  provider: z.enum(['extractive', 'openai', 'anthropic']),
  configured: z.boolean(),
  defaultBaseUrl: z.string().nullable(),
  defaultModel: z.string().nullable(),
});
const redelivery = z.object({
  deliveryId: z.string(),
  webhookId: z.string(),
  eventId: z.string(),
  event: z.string(),
  endpointId: z.string(),
  status: z.literal('pending'),
  nextAttemptAt: z.string(),
});

const orgId = pathParams('id');
const members = 'Members';
const createdItems = z.object({
  keys: z.array(z.object({ id: z.string(), name: z.string(), last4: z.string() })),
  webhooks: z.array(z.object({ id: z.string(), url: z.string(), enabled: z.boolean() })),
  invitations: z.array(z.object({ id: z.string(), role: z.string(), email: z.string().nullable(), expiresAt: z.string() })),
});
const outcome = z.enum(['revoked', 'transferred', 'disabled']);
const removalOutcome = z.object({
  keys: z.array(z.object({ id: z.string(), name: z.string(), outcome })),
  webhooks: z.array(z.object({ id: z.string(), url: z.string(), outcome })),
  invitations: z.array(z.object({ id: z.string(), email: z.string().nullable(), outcome: z.literal('revoked') })),
});
const memberAuditEntry = z.object({
  id: z.string(),
  action: z.enum(['member_removed', 'member_left']),
  actorUserId: z.string().nullable(),
  actorApiKeyId: z.string().nullable(),
  userId: z.string(),
  email: z.string().nullable(),
  details: removalOutcome.extend({ choice: z.enum(['revoke', 'transfer']) }),
  createdAt: z.string(),
});

export const dashboardRoutes = defineRoutes([
  // The caller's account.
  {
    method: 'get',
    path: '/v1/auth/me',
    tag: 'Auth',
    summary: 'Who the credential acts as: user, organization with limits, role, permissions',
    auth: AUTHENTICATED,
    success: { kind: 'envelope', status: 200, data: me },
    errors: [...AUTH_ERRORS],
  },
  {
    method: 'patch',
    path: '/v1/auth/me',
    tag: 'Auth',
    summary: 'Rename the signed-in user (user sessions only)',
    auth: AUTHENTICATED,
    body: profileSchema,
    example: { name: 'Ada Lovelace' },
    success: { kind: 'envelope', status: 200, data: user },
    errors: [400, ...AUTH_ERRORS, 413],
  },
  {
    method: 'post',
    path: '/v1/auth/password',
    tag: 'Auth',
    summary: "Change the password; the user's other sessions are revoked, this one kept",
    auth: AUTHENTICATED,
    body: passwordSchema,
    example: { currentPassword: 'correct horse battery', newPassword: 'a brand new password' },
    success: { kind: 'envelope', status: 200, data: z.object({ changed: z.literal(true), revokedSessions: z.int() }) },
    errors: [400, ...AUTH_ERRORS, 413],
  },

  {
    method: 'post',
    path: '/v1/auth/switch',
    tag: 'Auth',
    summary: 'A session in another organization the user belongs to (cookie from the dashboard, else a token)',
    auth: AUTHENTICATED,
    body: switchSchema,
    example: { organizationId: 'org_0000000000000000000' },
    success: { kind: 'envelope', status: 200, data: session.extend({ role }) },
    errors: [400, ...AUTH_ERRORS, 404, 413],
  },

  // Members, roles, invitations.
  {
    method: 'get',
    path: '/v1/organizations/{id}/members',
    tag: members,
    summary: 'List members, oldest first (keys: organizations:write)',
    auth: AUTHENTICATED,
    params: orgId,
    query: pageQuery,
    success: { kind: 'paginated', status: 200, item: member },
    errors: [400, ...AUTH_ERRORS, ...ID_ERRORS],
  },
  {
    method: 'patch',
    path: '/v1/organizations/{id}/members/{userId}',
    tag: members,
    summary: "Change a member's role (admin+; admins only by the owner)",
    auth: AUTHENTICATED,
    params: pathParams('id', 'userId'),
    body: memberRoleSchema,
    example: { role: 'editor' },
    success: { kind: 'envelope', status: 200, data: member },
    errors: [400, ...AUTH_ERRORS, ...ID_ERRORS, 413],
  },
  {
    method: 'get',
    path: '/v1/organizations/{id}/members/{userId}/created',
    tag: members,
    summary: 'What a member created here (live keys, webhooks, pending invitations): what removing them settles (admin+)',
    auth: AUTHENTICATED,
    params: pathParams('id', 'userId'),
    success: { kind: 'envelope', status: 200, data: createdItems },
    errors: [400, ...AUTH_ERRORS, ...ID_ERRORS],
  },
  {
    method: 'delete',
    path: '/v1/organizations/{id}/members/{userId}',
    tag: members,
    summary:
      'Remove a member, or leave; their sessions end, their pending invitations are revoked, and their keys revoked and webhooks disabled ' +
      '(created=revoke, the default) or both transferred to you (created=transfer, recorded in the audit log)',
    auth: AUTHENTICATED,
    params: pathParams('id', 'userId'),
    query: removeMemberQuery,
    success: { kind: 'envelope', status: 200, data: z.object({ userId: z.string(), removed: z.literal(true), created: removalOutcome }) },
    errors: [400, ...AUTH_ERRORS, ...ID_ERRORS],
  },
  {
    method: 'get',
    path: '/v1/organizations/{id}/audit',
    tag: members,
    summary: 'Member removals, newest first: who removed whom, and what became of what they created (admin+)',
    auth: AUTHENTICATED,
    params: orgId,
    query: pageQuery,
    success: { kind: 'paginated', status: 200, item: memberAuditEntry },
    errors: [400, ...AUTH_ERRORS, ...ID_ERRORS],
  },
  {
    method: 'post',
    path: '/v1/organizations/{id}/transfer',
    tag: members,
    summary: "Transfer ownership (the owner's session only): the old owner becomes admin",
    auth: AUTHENTICATED,
    params: orgId,
    body: transferSchema,
    example: { userId: 'usr_0000000000000000000' },
    success: { kind: 'envelope', status: 200, data: z.object({ owner: member, previousOwner: member }) },
    errors: [400, ...AUTH_ERRORS, ...ID_ERRORS, 413],
  },
  {
    method: 'post',
    path: '/v1/organizations/{id}/invitations',
    tag: members,
    summary: 'Invite by link: a single-use token, shown once, valid 7 days',
    auth: AUTHENTICATED,
    params: orgId,
    body: createInvitationSchema,
    example: { role: 'viewer', email: 'eve@example.com' },
    success: { kind: 'envelope', status: 201, data: invitation.extend({ token: z.string(), url: z.string() }) },
    errors: [400, ...AUTH_ERRORS, ...ID_ERRORS, 409, 413],
  },
  {
    method: 'get',
    path: '/v1/organizations/{id}/invitations',
    tag: members,
    summary: 'Pending invitations (never the token)',
    auth: AUTHENTICATED,
    params: orgId,
    query: pageQuery,
    success: { kind: 'paginated', status: 200, item: invitation },
    errors: [400, ...AUTH_ERRORS, ...ID_ERRORS],
  },
  {
    method: 'delete',
    path: '/v1/organizations/{id}/invitations/{invitationId}',
    tag: members,
    summary: 'Revoke a pending invitation',
    auth: AUTHENTICATED,
    params: pathParams('id', 'invitationId'),
    success: { kind: 'envelope', status: 200, data: z.object({ id: z.string(), deleted: z.literal(true) }) },
    errors: [400, ...AUTH_ERRORS, ...ID_ERRORS],
  },
  {
    method: 'get',
    path: '/v1/invitations/{token}',
    tag: members,
    summary: 'What an invitation link offers (public; 404 once used, revoked or expired)',
    auth: PUBLIC,
    params: pathParams('token'),
    success: {
      kind: 'envelope',
      status: 200,
      data: z.object({
        organization: z.object({ id: z.string(), name: z.string() }),
        role: z.string(),
        email: z.string().nullable(),
        expiresAt: z.string(),
      }),
    },
    errors: [400, 404],
  },
  {
    method: 'post',
    path: '/v1/invitations/{token}/accept',
    tag: members,
    summary: 'Accept an invitation as a new user (201) or an existing one with its password (200); a session in that organization',
    auth: PUBLIC,
    params: pathParams('token'),
    body: acceptInvitationSchema,
    example: { email: 'eve@example.com', password: 'correct horse battery', name: 'Eve' },
    success: { kind: 'envelope', status: 201, data: session },
    errors: [400, 401, 403, 404, 409, 413, 429],
  },

  // Assistant helpers (three names, one resource).
  ...['assistants', 'apps', 'integrations'].flatMap((name) =>
    defineRoutes([
      {
        method: 'post',
        path: `/v1/${name}/{id}/templates/test`,
        tag: 'Assistants',
        summary: 'Which response template fires for a message (saved templates, or the ones given)',
        auth: AUTHENTICATED,
        permission: 'assistants:write',
        params: pathParams('id'),
        body: templateTestSchema,
        example: {
          message: 'What are your opening hours?',
          templates: [{ trigger: 'opening hours', match: 'contains', response: 'Nine to five.' }],
        },
        success: { kind: 'envelope', status: 200, data: templateMatch },
        errors: [400, ...AUTH_ERRORS, ...ID_ERRORS, 413],
      },
      {
        method: 'post',
        path: `/v1/${name}/{id}/avatar`,
        tag: 'Assistants',
        summary: 'Upload an avatar image (PNG, JPEG, WebP, GIF by content; ≤ 1 MiB; no SVG): sets avatarUrl',
        auth: AUTHENTICATED,
        permission: 'assistants:write',
        params: pathParams('id'),
        otherBodies: { 'multipart/form-data': 'a `file` part: the image' },
        success: { kind: 'envelope', status: 201, data: z.object({ avatarUrl: z.string() }) },
        errors: [400, ...AUTH_ERRORS, ...ID_ERRORS, 413],
      },
      {
        method: 'get',
        path: `/v1/${name}/{id}/texts`,
        tag: 'Assistants',
        summary: "Interface texts in the assistant's language (what the connectors print themselves: errors, the sources heading, hints)",
        auth: AUTHENTICATED,
        permission: 'assistants:read',
        params: pathParams('id'),
        query: textsQuerySchema,
        success: { kind: 'envelope', status: 200, data: assistantTextsData },
        errors: [400, ...AUTH_ERRORS, ...ID_ERRORS],
      },
    ]),
  ),
  {
    method: 'get',
    path: '/v1/assets/{id}',
    tag: 'Assistants',
    summary: 'An uploaded image (public, immutable, nosniff)',
    auth: PUBLIC,
    params: pathParams('id'),
    success: { kind: 'file', status: 200, contentTypes: ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] },
    errors: [400, 404],
  },
  {
    method: 'get',
    path: '/v1/providers',
    tag: 'Assistants',
    summary: 'Answer providers and whether this server can use them (has a key or needs none)',
    auth: AUTHENTICATED,
    permission: 'assistants:read',
    success: { kind: 'envelope', status: 200, data: z.array(provider) },
    errors: [...AUTH_ERRORS],
  },

  // Knowledge and webhooks.
  {
    method: 'get',
    path: '/v1/knowledge-bases/{id}/documents/{docId}/chunks',
    tag: 'Knowledge',
    summary: "A document's chunks in reading order",
    auth: AUTHENTICATED,
    permission: 'knowledge_bases:read',
    params: pathParams('id', 'docId'),
    query: pageQuery,
    success: { kind: 'paginated', status: 200, item: chunk },
    errors: [400, ...AUTH_ERRORS, ...ID_ERRORS],
  },
  {
    method: 'post',
    path: '/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver',
    tag: 'Webhooks',
    summary: "Send a delivery's event again now, same webhook-id (deliveryId dlv_… or the log item id att_…)",
    auth: AUTHENTICATED,
    permission: 'webhooks:write',
    params: pathParams('id', 'deliveryId'),
    success: { kind: 'envelope', status: 202, data: redelivery },
    errors: [400, ...AUTH_ERRORS, ...ID_ERRORS, 409],
  },
]);
