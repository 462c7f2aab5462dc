import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupShop } from '../../test/fixtures.js';
import { client } from '../../test/http.js';
import { startServer, type TestServer } from '../../test/test-server.js';
import { PERMISSIONS, type Permission } from './permissions.js';

let server: TestServer;
let shop: Awaited<ReturnType<typeof setupShop>>;
let ids: { kb: string; doc: string; key: string; org: string; assistant: string; webhook: string };

beforeAll(async () => {
  server = await startServer();
  shop = await setupShop(server.url);
  // Dozens of keys are minted below: lift the session past the free plan's 60/min.
  await shop.api.patch(`/v1/organizations/${shop.organization.id}`, { plan: 'enterprise' });
  const docs = await shop.api.get(`/v1/knowledge-bases/${shop.kbId}/documents`);
  const key = await shop.api.post('/v1/api-keys', { name: 'target', permissions: ['chat'] });
  await shop.api.post(shop.chatPath, { message: 'hello', sessionId: 'matrix' });
  // Subscribed to an event nothing below fires, so the worker never calls out.
  const webhook = await shop.api.post('/v1/webhooks', { url: 'https://hooks.example.com/parley', events: ['app.deployment.updated'] });
  ids = {
    kb: shop.kbId,
    doc: docs.body.data[0].id,
    key: key.body.data.id,
    org: shop.organization.id,
    assistant: shop.assistantId,
    webhook: webhook.body.data.id,
  };
});
afterAll(async () => {
  await server.close();
});

type Route = [method: string, path: () => string, needs: Permission[], body?: unknown];

const routes: Route[] = [
  ['PATCH', () => `/v1/organizations/${ids.org}`, ['organizations:write'], { name: 'x' }],
  ['POST', () => '/v1/api-keys', ['api_keys:write'], { name: 'k', permissions: ['chat'] }],
  ['GET', () => '/v1/api-keys', ['api_keys:write']],
  ['GET', () => `/v1/api-keys/${ids.key}`, ['api_keys:write']],
  ['POST', () => `/v1/api-keys/${ids.key}/rotate`, ['api_keys:write'], {}],
  ['DELETE', () => `/v1/api-keys/${ids.key}`, ['api_keys:write']],
  ...['/v1/assistants', '/v1/apps', '/v1/integrations'].flatMap((base): Route[] => [
    ['POST', () => base, ['assistants:write'], { type: 'api', name: 'x' }],
    ['GET', () => base, ['assistants:read']],
    ['GET', () => `${base}/${ids.assistant}`, ['assistants:read']],
    ['PATCH', () => `${base}/${ids.assistant}`, ['assistants:write'], { description: 'd' }],
    ['DELETE', () => `${base}/${ids.assistant}`, ['assistants:write']],
  ]),
  ['POST', () => '/v1/knowledge-bases', ['knowledge_bases:write'], { name: 'x' }],
  ['GET', () => '/v1/knowledge-bases', ['knowledge_bases:read']],
  ['GET', () => `/v1/knowledge-bases/${ids.kb}`, ['knowledge_bases:read']],
  ['PATCH', () => `/v1/knowledge-bases/${ids.kb}`, ['knowledge_bases:write'], { name: 'y' }],
  ['DELETE', () => `/v1/knowledge-bases/${ids.kb}`, ['knowledge_bases:write']],
  ['POST', () => `/v1/knowledge-bases/${ids.kb}/documents`, ['knowledge_bases:write'], { title: 't', content: 'c' }],
  ['GET', () => `/v1/knowledge-bases/${ids.kb}/documents`, ['knowledge_bases:read']],
  ['GET', () => `/v1/knowledge-bases/${ids.kb}/documents/${ids.doc}`, ['knowledge_bases:read']],
  ['POST', () => `/v1/knowledge-bases/${ids.kb}/documents/${ids.doc}/sync`, ['knowledge_bases:write']],
  ['DELETE', () => `/v1/knowledge-bases/${ids.kb}/documents/${ids.doc}`, ['knowledge_bases:write']],
  ['POST', () => `/v1/knowledge-bases/${ids.kb}/search`, ['knowledge_bases:read'], { query: 'password' }],
  ['POST', () => `/v1/integrations/${ids.assistant}/chat`, ['chat'], { message: 'hi' }],
  ['POST', () => `/v1/apps/${ids.assistant}/chat`, ['chat'], { message: 'hi' }],
  ['GET', () => `/v1/integrations/${ids.assistant}/conversations/matrix`, ['conversations:read']],
  ['GET', () => '/api/v1/conversations/matrix/messages', ['conversations:read']],
  ['POST', () => '/v1/conversations/matrix/messages', ['conversations:write'], { content: 'hi' }],
  ['POST', () => '/v1/conversations/matrix/feedback', ['chat', 'conversations:write'], { messageId: 'msg_x', rating: 'up' }],
  ['POST', () => '/v1/conversations/matrix/end', ['chat', 'conversations:write']],
  ['GET', () => '/v1/analytics/conversations', ['analytics:read']],
  ['GET', () => '/v1/analytics/conversations/export?format=csv', ['analytics:read']],
  ['GET', () => '/v1/analytics/metrics', ['analytics:read']],
  ['GET', () => '/v1/analytics/knowledge-gaps', ['analytics:read']],
  ['POST', () => '/v1/webhooks', ['webhooks:write'], { url: 'https://hooks.example.com/x', events: ['*'] }],
  ['GET', () => '/v1/webhooks', ['webhooks:write']],
  ['GET', () => `/v1/webhooks/${ids.webhook}`, ['webhooks:write']],
  ['PATCH', () => `/v1/webhooks/${ids.webhook}`, ['webhooks:write'], { description: 'd' }],
  ['DELETE', () => `/v1/webhooks/${ids.webhook}`, ['webhooks:write']],
  ['GET', () => `/v1/webhooks/${ids.webhook}/deliveries`, ['webhooks:write']],
  ['POST', () => `/v1/webhooks/${ids.webhook}/test`, ['webhooks:write']],
];

describe('permission matrix: every route refuses a key without its permission', () => {
  it.each(routes.map((r) => [`${r[0]} ${r[1].toString().replace(/^\(\) => /, '')}`, r] as const))(
    '%s',
    async (_name, [method, path, needs, body]) => {
      const without = PERMISSIONS.filter((p) => !needs.includes(p));
      const key = await shop.api.post('/v1/api-keys', { name: 'without', permissions: without });
      const res = await client(server.url, key.body.data.key).request(method, path(), { body });
      expect(res.status).toBe(403);
      const bare = path().endsWith('/chat') && path().startsWith('/v1/integrations');
      expect(res.body).toEqual(
        bare
          ? { error: { code: 'FORBIDDEN', message: expect.any(String) } }
          : { status: 'error', error: { code: 'permission_denied', message: expect.any(String) } },
      );
    },
  );

  it('lets a key with exactly the needed permission through (no 403)', async () => {
    // Read-only routes only, so the shared fixtures stay intact.
    for (const [method, path, needs, body] of routes.filter(
      (r) => r[0] === 'GET' || r[1]().endsWith('/search') || r[1]().endsWith('/chat'),
    )) {
      const key = await shop.api.post('/v1/api-keys', { name: 'exact', permissions: needs });
      const res = await client(server.url, key.body.data.key).request(method, path(), { body });
      expect(res.status, `${method} ${path()}`).toBe(200);
    }
  });
});
