import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAccount } from '../../test/http.js';
import { openDb } from '../db/open.js';
import { startServer, type TestServer } from '../../test/test-server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

async function upload(token: string, kbId: string, fileName: string, content: string, url: string) {
  const form = new FormData();
  form.append('file', new Blob([content]), fileName);
  form.append('url', url);
  const res = await fetch(`${server.url}/v1/knowledge-bases/${kbId}/documents`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  expect(res.status).toBe(201);
}

describe('source links carry an anchor only where the page has that id', () => {
  it('HTML headings with an id link to it; headings without one, and markdown documents, link to the page itself', async () => {
    const { api, token } = await registerAccount(server.url);
    const kbId = (await api.post('/v1/knowledge-bases', { name: 'Help' })).body.data.id as string;
    await upload(
      token,
      kbId,
      'shipping.html',
      `<html><head><title>Shipping</title></head><body>
      <h1>Shipping</h1><p>Overview of parcels.</p>
      <h2 id="intl-orders">International orders</h2><p>International parcels travel by zeppelin within nine days.</p>
      <h2>Domestic orders</h2><p>Domestic parcels travel by bicycle courier overnight.</p></body></html>`,
      'https://acme.test/shipping',
    );
    await api.post(`/v1/knowledge-bases/${kbId}/documents`, {
      title: 'Returns',
      url: 'https://acme.test/returns',
      content: '# Returns\n\n## Refund window\n\nRefunds are granted within thirty days by carrier pigeon.',
    });

    const hit = async (q: string) =>
      (await api.post(`/v1/knowledge-bases/${kbId}/search`, { query: q })).body.data[0] as { url: string; title: string };
    expect((await hit('zeppelin international parcels')).url).toBe('https://acme.test/shipping#intl-orders');
    expect((await hit('bicycle courier domestic')).url).toBe('https://acme.test/shipping'); // was #domestic-orders, an id the page lacks
    expect((await hit('carrier pigeon refunds')).url).toBe('https://acme.test/returns'); // was #refund-window

    const assistant = await api.post('/v1/assistants', { type: 'api', name: 'A', knowledgeBases: [{ id: kbId }] });
    const chat = await api.post(`/v1/integrations/${assistant.body.data.id}/chat`, { message: 'How do domestic parcels travel?' });
    expect(chat.body.sources[0]).toEqual({ title: 'Shipping', url: 'https://acme.test/shipping' });
  });

  it('migration 011 drops the made-up anchors stored before', async () => {
    // A SQLite migration: it runs on a SQLite server of its own, whatever database the others use.
    const db = openDb(':memory:');
    const sqlite = await startServer({ db });
    try {
      const { api } = await registerAccount(sqlite.url);
      const kbId = (await api.post('/v1/knowledge-bases', { name: 'Old' })).body.data.id as string;
      await api.post(`/v1/knowledge-bases/${kbId}/documents`, {
        title: 'Old',
        url: 'https://acme.test/old',
        content: '# Old\n\n## Slugged\n\nWombats were indexed before this fix.',
      });
      // What an older version stored: a slug made from the heading text.
      db.prepare("UPDATE chunks SET anchor = 'slugged' WHERE knowledge_base_id = ?").run(kbId);
      db.exec(fs.readFileSync(new URL('../db/migrations/011-page-anchors.sql', import.meta.url), 'utf8'));
      expect(db.prepare('SELECT count(*) AS n FROM chunks WHERE anchor IS NOT NULL AND knowledge_base_id = ?').get(kbId)).toEqual({ n: 0 });
    } finally {
      await sqlite.close();
      db.close();
    }
  });
});
