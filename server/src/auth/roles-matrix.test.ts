import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupShop } from '../../test/fixtures.js';
import { type Client } from '../../test/http.js';
import { addMemberWithRole } from '../../test/members.js';
import { startServer, type TestServer } from '../../test/test-server.js';
import { ROLE_PERMISSIONS, type Permission } from './permissions.js';

/**
 * Roles × routes (docs/api-spec.md §11): a role is a permission set, resolved per session. Every write
 * route is listed with what it needs; each role must get 403 exactly where its set lacks it.
 * Chat, feedback and end are not here: every role may use the playground (`chat`).
 */
let server: TestServer;
let shop: Awaited<ReturnType<typeof setupShop>>;
let members: Record<'viewer' | 'editor' | 'admin', Client & { userId: string }>;
let ids: { kb: string; doc: string; key: string; org: string; assistant: string; webhook: string; owner: string };

beforeAll(async () => {
  server = await startServer();
  shop = await setupShop(server.url);
  await shop.api.patch(`/v1/organizations/${shop.organization.id}`, { plan: 'enterprise' });
  const docs = await shop.api.get(`/v1/knowledge-bases/${shop.kbId}/documents`);
  const key = await shop.api.post('/v1/api-keys', { name: 'target', permissions: ['chat'] });
  const webhook = await shop.api.post('/v1/webhooks', { url: 'https://hooks.example.com/parley', events: ['app.deployment.updated'] });
  ids = {
    kb: shop.kbId,
    doc: docs.body.data[0].id,
    key: key.body.data.id,
    org: shop.organization.id,
    assistant: shop.assistantId,
    webhook: webhook.body.data.id,
    owner: shop.user.id,
  };
  const made = {} as typeof members;
  for (const role of ['viewer', 'editor', 'admin'] as const) {
    const m = await addMemberWithRole(server.url, shop.api, shop.organization.id, role);
    made[role] = Object.assign(m.api, { userId: m.userId });
  }
  members = made;
});
afterAll(async () => {
  await server.close();
});

/** `members`: needs the admin or owner role (not a key permission). */
type Need = Permission | readonly Permission[] | 'members';
type Route = [method: string, path: () => string, needs: Need, body?: unknown];

const writeRoutes: Route[] = [
  ['PATCH', () => `/v1/organizations/${ids.org}`, 'organizations:write', { plan: 'pro' }],
  ['POST', () => '/v1/api-keys', 'api_keys:write', { name: 'k', permissions: ['chat'] }],
  ['GET', () => '/v1/api-keys', 'api_keys:write'],
  ['POST', () => `/v1/api-keys/${ids.key}/rotate`, 'api_keys:write', {}],
  ['DELETE', () => `/v1/api-keys/${ids.key}`, 'api_keys:write'],
  ['POST', () => '/v1/assistants', 'assistants:write', { type: 'api', name: 'x' }],
  ['PATCH', () => `/v1/assistants/${ids.assistant}`, 'assistants:write', { description: 'd' }],
  ['DELETE', () => `/v1/assistants/${ids.assistant}`, 'assistants:write'],
  ['POST', () => '/v1/knowledge-bases', 'knowledge_bases:write', { name: 'x' }],
  ['PATCH', () => `/v1/knowledge-bases/${ids.kb}`, 'knowledge_bases:write', { name: 'y' }],
  ['DELETE', () => `/v1/knowledge-bases/${ids.kb}`, 'knowledge_bases:write'],
  ['POST', () => `/v1/knowledge-bases/${ids.kb}/documents`, 'knowledge_bases:write', { title: 't', content: 'c' }],
  ['POST', () => `/v1/knowledge-bases/${ids.kb}/documents/${ids.doc}/sync`, 'knowledge_bases:write'],
  ['DELETE', () => `/v1/knowledge-bases/${ids.kb}/documents/${ids.doc}`, 'knowledge_bases:write'],
  ['POST', () => '/v1/conversations/matrix/messages', 'conversations:write', { content: 'hi' }],
  ['POST', () => '/v1/webhooks', 'webhooks:write', { url: 'https://hooks.example.com/x', events: ['*'] }],
  ['GET', () => '/v1/webhooks', 'webhooks:write'],
  ['PATCH', () => `/v1/webhooks/${ids.webhook}`, 'webhooks:write', { description: 'd' }],
  ['DELETE', () => `/v1/webhooks/${ids.webhook}`, 'webhooks:write'],
  ['POST', () => `/v1/webhooks/${ids.webhook}/test`, 'webhooks:write'],
  ['POST', () => `/v1/organizations/${ids.org}/invitations`, 'members', { role: 'viewer' }],
  ['GET', () => `/v1/organizations/${ids.org}/invitations`, 'members'],
  ['PATCH', () => `/v1/organizations/${ids.org}/members/${ids.owner}`, 'members', { role: 'viewer' }],
  ['DELETE', () => `/v1/organizations/${ids.org}/members/${ids.owner}`, 'members'],
  ['POST', () => `/v1/organizations/${ids.org}/transfer`, 'organizations:write', { userId: 'usr_x' }],
  ['POST', () => `/v1/assistants/${ids.assistant}/avatar`, 'assistants:write', {}],
  ['POST', () => `/v1/webhooks/${ids.webhook}/deliveries/dlv_1/redeliver`, 'webhooks:write'],
  [
    'POST',
    () => '/v1/analytics/knowledge-gaps/gap_x/resolve',
    ['assistants:write', 'knowledge_bases:write'],
    { answer: 'a', as: 'template' },
  ],
  ['POST', () => '/v1/analytics/knowledge-gaps/gap_x/dismiss', ['assistants:write', 'knowledge_bases:write'], { reason: 'r' }],
  ['POST', () => '/v1/corrections', ['assistants:write', 'knowledge_bases:write'], { sessionId: 's', messageId: 'm', answer: 'a' }],
];

const allows = (role: 'viewer' | 'editor' | 'admin', need: Need): boolean => {
  if (need === 'members') return role === 'admin';
  return (typeof need === 'string' ? [need] : need).some((p) => ROLE_PERMISSIONS[role].has(p));
};

describe('roles matrix: each role gets 403 wherever its permission set lacks the need', () => {
  for (const role of ['viewer', 'editor', 'admin'] as const) {
    const refused = writeRoutes.filter((r) => !allows(role, r[2]));
    it.each(refused.map((r) => [`${role} ${r[0]} ${r[1].toString().replace(/^\(\) => /, '')}`, r] as const))(
      '%s → 403',
      async (_name, [method, path, , body]) => {
        const res = await members[role].request(method, path(), { body });
        expect(res.status).toBe(403);
        expect(res.body.error.code).toBe('permission_denied');
      },
    );
  }

  it('viewer may write nothing at all: every write route of the list is refused', () => {
    expect(writeRoutes.filter((r) => allows('viewer', r[2]))).toEqual([]);
  });

  it('editor changes assistants and knowledge; admin also keys, webhooks and members (no 403)', async () => {
    const editorOk = await members.editor.post('/v1/knowledge-bases', { name: 'by editor' });
    expect(editorOk.status).toBe(201);
    expect((await members.editor.patch(`/v1/assistants/${ids.assistant}`, { description: 'edited' })).status).toBe(200);
    expect((await members.admin.post('/v1/api-keys', { name: 'by admin', permissions: ['chat'] })).status).toBe(201);
    expect((await members.admin.get('/v1/webhooks')).status).toBe(200);
    expect((await members.admin.post(`/v1/organizations/${ids.org}/invitations`, { role: 'editor' })).status).toBe(201);
    // Reads stay open to the viewer.
    for (const path of ['/v1/assistants', '/v1/knowledge-bases', '/v1/analytics/metrics', `/v1/organizations/${ids.org}/members`]) {
      expect((await members.viewer.get(path)).status, path).toBe(200);
    }
  });

  it('a role never grants more than the matching key: an admin cannot mint a key with organizations:write', async () => {
    const res = await members.admin.post('/v1/api-keys', { name: 'escalate', permissions: ['chat', 'organizations:write'] });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toMatch(/organizations:write/);
  });

  it('the viewer may use the playground (chat)', async () => {
    const res = await members.viewer.post(`/v1/integrations/${ids.assistant}/chat`, { message: 'How long does shipping take?' });
    expect(res.status).toBe(200);
  });
});
