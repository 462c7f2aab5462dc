import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerAccount } from '../../test/http.js';
import { startServer, type TestServer } from '../../test/test-server.js';
import { buildFtsQuery, priorityWeight } from './retrieval.js';

let server: TestServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(async () => {
  await server.close();
});

const GUIDE = `# Setup guide

## Install

Run the installer and accept the license. The installer needs 2 GB of free disk space.

## Reset your password

Open Settings, choose Security and click "Reset password". A reset link arrives by email within five minutes.
`;

describe('knowledge bases and documents (API.md §6)', () => {
  it('creates, reads, patches, lists and deletes knowledge bases', async () => {
    const { api } = await registerAccount(server.url);
    const kb = await api.post('/v1/knowledge-bases', { name: 'Docs', description: 'Product docs' });
    expect(kb.status).toBe(201);
    expect(kb.body.data).toMatchObject({
      id: expect.stringMatching(/^kb_/),
      name: 'Docs',
      description: 'Product docs',
      documentCount: 0,
      chunkCount: 0,
    });
    const id = kb.body.data.id;
    expect((await api.patch(`/v1/knowledge-bases/${id}`, { name: 'Manual' })).body.data).toMatchObject({
      name: 'Manual',
      description: 'Product docs',
    });
    expect((await api.get('/v1/knowledge-bases')).body.pagination.total).toBe(1);
    expect((await api.post('/v1/knowledge-bases', { name: '' })).status).toBe(400);
    expect((await api.del(`/v1/knowledge-bases/${id}`)).status).toBe(200);
    expect((await api.get(`/v1/knowledge-bases/${id}`)).status).toBe(404);
  });

  it('adds a markdown document, chunked by headings, and finds the right passage', async () => {
    const { api } = await registerAccount(server.url);
    const kbId = (await api.post('/v1/knowledge-bases', { name: 'Docs' })).body.data.id;
    const doc = await api.post(`/v1/knowledge-bases/${kbId}/documents`, {
      title: 'Setup guide',
      content: GUIDE,
      format: 'markdown',
      url: 'https://docs.example.com/setup',
    });
    expect(doc.status).toBe(201);
    expect(doc.body.data).toEqual({
      id: expect.stringMatching(/^doc_/),
      knowledgeBaseId: kbId,
      title: 'Setup guide',
      url: 'https://docs.example.com/setup',
      format: 'markdown',
      source: 'inline',
      status: 'ready',
      error: null,
      progress: null,
      chunkCount: 2,
      bytes: Buffer.byteLength(GUIDE),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      syncedAt: expect.any(String),
      language: 'en',
    });
    const hits = await api.post(`/v1/knowledge-bases/${kbId}/search`, { query: 'how can I reset my password?' });
    expect(hits.status).toBe(200);
    expect(hits.body.data[0]).toMatchObject({ documentId: doc.body.data.id, title: 'Setup guide', url: 'https://docs.example.com/setup' });
    expect(hits.body.data[0].text).toContain('Reset password');
    expect(hits.body.data[0].score).toBeGreaterThan(0);
    expect(
      hits.body.data.every((h: { score: number }, i: number, all: { score: number }[]) => i === 0 || all[i - 1]!.score >= h.score),
    ).toBe(true);
  });

  it('reduces HTML to text: scripts and styles dropped, headings kept', async () => {
    const { api } = await registerAccount(server.url);
    const kbId = (await api.post('/v1/knowledge-bases', { name: 'Docs' })).body.data.id;
    const html =
      '<html><head><style>.x{color:red}</style><script>var secretToken = 1;</script></head><body><h1>Billing</h1><p>Invoices are sent on the first day of each month.</p></body></html>';
    await api.post(`/v1/knowledge-bases/${kbId}/documents`, { title: 'Billing', content: html, format: 'html' });
    const hits = await api.post(`/v1/knowledge-bases/${kbId}/search`, { query: 'when are invoices sent' });
    expect(hits.body.data[0].text).toContain('Invoices are sent on the first day');
    expect(JSON.stringify(hits.body.data)).not.toMatch(/secretToken|color:red|<p>/);
    expect((await api.post(`/v1/knowledge-bases/${kbId}/search`, { query: 'secretToken' })).body.data).toEqual([]);
  });

  it('survives punctuation, quotes and FTS syntax in queries', async () => {
    const { api } = await registerAccount(server.url);
    const kbId = (await api.post('/v1/knowledge-bases', { name: 'Docs' })).body.data.id;
    await api.post(`/v1/knowledge-bases/${kbId}/documents`, { title: 'Setup guide', content: GUIDE, format: 'markdown' });
    for (const query of [
      '"password',
      'password AND OR NOT',
      'pass*word',
      'NEAR(password reset)',
      "what's the installer's size?",
      '(((',
      '-',
      'title:install',
    ]) {
      const res = await api.post(`/v1/knowledge-bases/${kbId}/search`, { query });
      expect(res.status, query).toBe(200);
    }
  });

  it('replaces a document re-added with the same url, and deleting removes its chunks at once', async () => {
    const { api } = await registerAccount(server.url);
    const kbId = (await api.post('/v1/knowledge-bases', { name: 'Docs' })).body.data.id;
    const url = 'https://docs.example.com/faq';
    await api.post(`/v1/knowledge-bases/${kbId}/documents`, { title: 'FAQ', content: 'Shipping takes seven days.', url });
    const v2 = await api.post(`/v1/knowledge-bases/${kbId}/documents`, { title: 'FAQ', content: 'Shipping takes three days.', url });
    expect((await api.get(`/v1/knowledge-bases/${kbId}/documents`)).body.pagination.total).toBe(1);
    expect((await api.post(`/v1/knowledge-bases/${kbId}/search`, { query: 'seven' })).body.data).toEqual([]);
    expect((await api.post(`/v1/knowledge-bases/${kbId}/search`, { query: 'shipping' })).body.data[0].text).toContain('three');
    expect((await api.get(`/v1/knowledge-bases/${kbId}/documents/${v2.body.data.id}`)).body.data.title).toBe('FAQ');
    expect((await api.del(`/v1/knowledge-bases/${kbId}/documents/${v2.body.data.id}`)).status).toBe(200);
    expect((await api.post(`/v1/knowledge-bases/${kbId}/search`, { query: 'shipping' })).body.data).toEqual([]);
    // The full-text index forgot them too (FTS5 on SQLite, the tsvector column on PostgreSQL).
    const { storage } = server.ctx;
    const count = await storage.get<{ n: number }>(
      storage.dialect === 'sqlite'
        ? "SELECT count(*) AS n FROM chunks_fts WHERE chunks_fts MATCH 'shipping'"
        : "SELECT count(*) AS n FROM chunks WHERE tsv @@ plainto_tsquery('english', 'shipping')",
    );
    expect(count?.n).toBe(0);
  });

  it('validates documents and search input', async () => {
    const { api } = await registerAccount(server.url);
    const kbId = (await api.post('/v1/knowledge-bases', { name: 'Docs' })).body.data.id;
    for (const body of [
      { title: 'x' },
      { title: 'x', content: '   ' },
      { title: 'x', content: 'y', format: 'pdf' },
      { content: 'y' },
      { title: 'x', content: 'y', url: 'ftp://x' },
    ]) {
      expect((await api.post(`/v1/knowledge-bases/${kbId}/documents`, body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await api.post(`/v1/knowledge-bases/${kbId}/search`, { query: '' })).status).toBe(400);
    expect((await api.post(`/v1/knowledge-bases/${kbId}/search`, { query: 'x', limit: 51 })).status).toBe(400);
    expect((await api.post('/v1/knowledge-bases/kb_nope/documents', { title: 'x', content: 'y' })).status).toBe(404);
  });

  it("hides another organization's knowledge bases and documents", async () => {
    const a = await registerAccount(server.url);
    const b = await registerAccount(server.url);
    const kbId = (await a.api.post('/v1/knowledge-bases', { name: 'Secret' })).body.data.id;
    const doc = await a.api.post(`/v1/knowledge-bases/${kbId}/documents`, { title: 'x', content: 'classified launch codes' });
    expect((await b.api.get(`/v1/knowledge-bases/${kbId}`)).status).toBe(404);
    expect((await b.api.get(`/v1/knowledge-bases/${kbId}/documents/${doc.body.data.id}`)).status).toBe(404);
    expect((await b.api.post(`/v1/knowledge-bases/${kbId}/search`, { query: 'launch codes' })).status).toBe(404);
    expect((await b.api.del(`/v1/knowledge-bases/${kbId}`)).status).toBe(404);
  });
});

describe('retrieval building blocks', () => {
  it('quotes every term and drops stopwords', () => {
    expect(buildFtsQuery('How do I reset my "password"?')).toBe('"reset" OR "password"');
    expect(buildFtsQuery('the')).toBe('"the"');
    expect(buildFtsQuery('?!')).toBeNull();
  });

  it('weights priority 1..10 from 0.6x to 1.5x', () => {
    expect(priorityWeight(5)).toBe(1);
    expect(priorityWeight(10)).toBeCloseTo(1.5);
    expect(priorityWeight(1)).toBeCloseTo(0.6);
  });
});
