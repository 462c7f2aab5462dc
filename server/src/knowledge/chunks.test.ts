import { afterEach, describe, expect, it } from 'vitest';
import { setupShop } from '../../test/fixtures.js';
import { registerAccount } from '../../test/http.js';
import { startServer, type TestServer } from '../../test/test-server.js';

let server: TestServer;
afterEach(async () => {
  await server?.close();
});

describe('GET /v1/knowledge-bases/:id/documents/:docId/chunks', () => {
  it("lists a document's chunks in reading order with heading path, text and section url, paginated", async () => {
    server = await startServer();
    const shop = await setupShop(server.url);
    const long = [
      '# Guide',
      ...Array.from(
        { length: 6 },
        (_, i) => `## Part ${i + 1}\n\n${`Sentence number ${i + 1} of the guide explains a step in detail. `.repeat(25)}`,
      ),
    ].join('\n\n');
    const doc = await shop.api.post(`/v1/knowledge-bases/${shop.kbId}/documents`, {
      title: 'Guide',
      content: long,
      format: 'markdown',
      url: 'https://docs.example.com/guide',
    });
    expect(doc.body.data.chunkCount).toBeGreaterThan(3);
    const base = `/v1/knowledge-bases/${shop.kbId}/documents/${doc.body.data.id}/chunks`;
    const first = await shop.api.get(`${base}?limit=2`);
    expect(first.status).toBe(200);
    expect(first.body.pagination).toEqual({
      total: doc.body.data.chunkCount,
      page: 1,
      limit: 2,
      pages: Math.ceil(doc.body.data.chunkCount / 2),
    });
    expect(first.body.data[0]).toEqual({
      id: expect.any(String),
      ordinal: 0,
      heading: expect.stringContaining('Guide'),
      text: expect.stringContaining('Sentence number 1'),
      page: null,
      url: expect.stringMatching(/^https:\/\/docs\.example\.com\/guide(#|$)/),
    });
    const all = await shop.api.get(`${base}?limit=100`);
    const ordinals = all.body.data.map((c: { ordinal: number }) => c.ordinal);
    expect(ordinals).toEqual([...ordinals].sort((a, b) => a - b));
    expect(all.body.data.at(-1).text).toContain('Sentence number 6');
  });

  it("404 for an unknown document or another organization's base; needs knowledge_bases:read", async () => {
    server = await startServer();
    const shop = await setupShop(server.url);
    const docs = await shop.api.get(`/v1/knowledge-bases/${shop.kbId}/documents`);
    const path = `/v1/knowledge-bases/${shop.kbId}/documents/${docs.body.data[0].id}/chunks`;
    expect((await shop.api.get(`/v1/knowledge-bases/${shop.kbId}/documents/doc_nope/chunks`)).status).toBe(404);
    const other = await registerAccount(server.url);
    expect((await other.api.get(path)).status).toBe(404);
    const key = await shop.api.post('/v1/api-keys', { name: 'k', permissions: ['assistants:read'] });
    expect((await (await import('../../test/http.js')).client(server.url, key.body.data.key).get(path)).status).toBe(403);
    expect((await shop.api.get(`${path}?limit=0`)).status).toBe(400);
  });
});
