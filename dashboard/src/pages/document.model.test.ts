import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, startTestServer, type Server } from '../../e2e/support.js';
import type { ApiClient } from '../lib/api.js';
import { CHUNKS_PAGE_SIZE, createDocumentModel, headingPath } from './document.model.js';

// The document page model against a real Parley: the record and its chunks, paginated.

let server: Server;
let client: ApiClient;

beforeAll(async () => {
  server = await startTestServer();
  client = clientFor(server);
});
afterAll(() => server?.close());

describe('document model', () => {
  it('splits a stored heading trail', () => {
    expect(headingPath('Setup › Install › Linux / BSD')).toEqual(['Setup', 'Install', 'Linux / BSD']);
    expect(headingPath(['A', 'B'])).toEqual(['A', 'B']);
    expect(headingPath(null)).toEqual([]);
  });

  it('loads the document and its chunks in order with heading paths, page by page', async () => {
    const sections = Array.from(
      { length: 25 },
      (_, i) => `## Section ${i + 1}\n\n${`Paragraph about topic number ${i + 1} with several words. `.repeat(40)}`,
    ).join('\n\n');
    const doc = await client.post<{ id: string; chunkCount: number }>(`/knowledge-bases/${server.knowledgeBaseId}/documents`, {
      title: 'Long guide',
      format: 'markdown',
      content: `# Guide\n\n${sections}`,
    });
    expect(doc.chunkCount).toBeGreaterThan(CHUNKS_PAGE_SIZE);
    const m = createDocumentModel(client, server.knowledgeBaseId, doc.id);
    await m.load();
    expect(m.doc.data.value).toMatchObject({ id: doc.id, title: 'Long guide', status: 'ready' });
    expect(m.kb.data.value?.id).toBe(server.knowledgeBaseId);
    expect(m.chunks.error.value).toBeNull();
    const first = m.chunks.data.value!;
    expect(first.total).toBe(doc.chunkCount);
    expect(first.items).toHaveLength(CHUNKS_PAGE_SIZE);
    expect(first.items.map((c) => c.ordinal)).toEqual([...first.items.map((c) => c.ordinal)].sort((a, b) => a - b));
    expect(headingPath(first.items[0]!.heading)[0]).toBe('Guide');
    expect(first.items.some((c) => headingPath(c.heading).join('/') === 'Guide/Section 1')).toBe(true);
    await m.goTo(2);
    expect(m.chunks.data.value!.page).toBe(2);
    expect(m.chunks.data.value!.items[0]!.ordinal).toBeGreaterThan(first.items.at(-1)!.ordinal);
  });

  it('an unknown document is not found', async () => {
    const m = createDocumentModel(client, server.knowledgeBaseId, 'doc_missing');
    await m.load();
    expect(m.doc.error.value?.kind).toBe('not_found');
  });
});
