import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerAccount } from '../../test/http.js';
import { startServer, type TestServer } from '../../test/test-server.js';

let server: TestServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(async () => {
  await server.close();
});

const GERMAN =
  'Die Universität wurde im Jahr 1388 gegründet. Sie ist die älteste Universität der Stadt Köln und hat heute fast 50.000 Studierende.';
const THAI = 'มหาวิทยาลัยก่อตั้งขึ้นในปี 1917 เป็นมหาวิทยาลัยแห่งแรกของประเทศไทย ปัจจุบันมีนักศึกษามากกว่าสามหมื่นคน';

describe('the language of the knowledge (API.md §12)', () => {
  it("detects each document's language in an 'auto' base, and finds it with a question in that language", async () => {
    const { api } = await registerAccount(server.url);
    const kb = await api.post('/v1/knowledge-bases', { name: 'Mixed' });
    expect(kb.body.data.language).toBe('auto');
    const kbId = kb.body.data.id;
    const de = await api.post(`/v1/knowledge-bases/${kbId}/documents`, { title: 'Universität', content: GERMAN });
    const th = await api.post(`/v1/knowledge-bases/${kbId}/documents`, { title: 'มหาวิทยาลัย', content: THAI });
    expect([de.body.data.language, th.body.data.language]).toEqual(['de', 'th']);
    // Snowball German: "gegründet" asked as "gründete", "Universitäten" as "Universität".
    const hits = await api.post(`/v1/knowledge-bases/${kbId}/search`, { query: 'Wann wurden die Universitäten gegründet?' });
    expect(hits.body.data[0].documentId).toBe(de.body.data.id);
    // Thai has no spaces between words: the question's words are found inside the text.
    const thaiHits = await api.post(`/v1/knowledge-bases/${kbId}/search`, { query: 'มหาวิทยาลัยก่อตั้งปีไหน' });
    expect(thaiHits.body.data[0].documentId).toBe(th.body.data.id);
  });

  it('a fixed language analyses every document in it; changing it re-analyses them', async () => {
    const { api } = await registerAccount(server.url);
    const kb = await api.post('/v1/knowledge-bases', { name: 'Docs', language: 'DE-de' });
    expect(kb.body.data.language).toBe('de-DE');
    const kbId = kb.body.data.id;
    const doc = await api.post(`/v1/knowledge-bases/${kbId}/documents`, {
      title: 'Guide',
      content: 'Reset your password from the settings page.',
    });
    expect(doc.body.data.language).toBe('de-DE');
    const patched = await api.patch(`/v1/knowledge-bases/${kbId}`, { language: 'auto' });
    expect(patched.body.data.language).toBe('auto');
    const docs = await api.get(`/v1/knowledge-bases/${kbId}/documents`);
    expect(docs.body.data[0].language).toBe('en');
    // English analysis now: "passwords" finds "password" (Porter), and the chunk was written again.
    const hits = await api.post(`/v1/knowledge-bases/${kbId}/search`, { query: 'passwords' });
    expect(hits.body.data).toHaveLength(1);
  });

  it('rejects a malformed language with a 400 naming the field', async () => {
    const { api } = await registerAccount(server.url);
    for (const language of ['english', 'x', 'en_US!', '', 42]) {
      const res = await api.post('/v1/knowledge-bases', { name: 'Docs', language });
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body.error)).toContain('language');
    }
    const kb = (await api.post('/v1/knowledge-bases', { name: 'Docs' })).body.data.id;
    expect((await api.patch(`/v1/knowledge-bases/${kb}`, { language: 'not a tag' })).status).toBe(400);
    expect((await api.get(`/v1/knowledge-bases/${kb}`)).body.data.language).toBe('auto');
  });
});
