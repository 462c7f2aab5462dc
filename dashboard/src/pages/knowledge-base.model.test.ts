import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeDocx, makePdf } from '../../../server/test/document-files.js';
import { fakeSite, page as sitePage, startWebServer, type FakeSite } from '../../../server/test/fake-site.js';
import type { TestServer } from '../../../server/test/test-server.js';
import { createApiClient, type ApiClient } from '../lib/api.js';
import {
  createKnowledgeBaseModel,
  describeProgress,
  isActive,
  progressFraction,
  type KbDocument,
  type Uploader,
} from './knowledge-base.model.js';
import { createKnowledgeBasesModel } from './knowledge-bases.model.js';

// The knowledge pages' models against a real Parley (web fetch jobs tuned fast) and a real
// local website for the crawl.

let server: TestServer;
let site: FakeSite;
let client: ApiClient;

/** Node has no XMLHttpRequest: the test uploader sends with fetch and reports completion. */
const fetchUploader =
  (c: ApiClient): Uploader =>
  async (path, form, onProgress) => {
    const doc = await c.upload<KbDocument>(path, form);
    onProgress(1);
    return doc;
  };

beforeAll(async () => {
  server = await startWebServer({ urlSources: { progressIntervalMs: 10 } });
  const res = await fetch(`${server.url}/v1/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'kb-owner@example.com', password: 'a long password 1', organizationName: 'KB Org' }),
  });
  const token = ((await res.json()) as { data: { token: string } }).data.token;
  client = createApiClient({ origin: server.url, headers: { Authorization: `Bearer ${token}` } });
  const links = ['/a', '/b', '/c'];
  site = await fakeSite({
    '/robots.txt': { status: 404 },
    '/': sitePage('Home of Zebulon', '<p>Zebulon sells striped umbrellas for windy days.</p>', { links }),
    '/a': { body: sitePage('Returns', '<p>Umbrellas may be returned within 30 days with the receipt.</p>', { links }), delayMs: 150 },
    '/b': { body: sitePage('Shipping', '<p>Shipping to the moon takes forty days.</p>', { links }), delayMs: 150 },
    '/c': { body: sitePage('Warranty', '<p>The warranty covers broken ribs for two years.</p>', { links }), delayMs: 150 },
  });
});
afterAll(async () => {
  await site?.close();
  await server?.close();
});

describe('knowledge bases list model', () => {
  it('creates a base, lists it, and keeps the form when the server refuses', async () => {
    const m = createKnowledgeBasesModel(client);
    m.name.value = '   ';
    expect(await m.createBase()).toBeUndefined();
    expect(m.create.fieldError('name')).toBeTruthy();
    expect(m.name.value).toBe('   ');

    m.name.value = 'Support';
    m.description.value = 'Help articles';
    const kb = await m.createBase();
    expect(kb?.name).toBe('Support');
    expect(m.name.value).toBe('');
    expect(m.list.data.value?.items.map((k) => k.name)).toContain('Support');
    expect(m.list.data.value?.items.find((k) => k.id === kb!.id)?.description).toBe('Help articles');
  });
});

describe('knowledge base model', () => {
  let kbId: string;
  beforeAll(async () => {
    kbId = (await client.post<{ id: string }>('/knowledge-bases', { name: 'Docs' })).id;
  });

  it('uploads many files at once: each has its own result, a bad file its own server message', async () => {
    const m = createKnowledgeBaseModel(client, kbId, { uploader: fetchUploader(client) });
    await m.load();
    const pdf = await makePdf([['# Refunds', 'Refunds of the quasar plan take seven days.']]);
    const docx = await makeDocx([{ text: 'Installing', style: 'Heading1' }, { text: 'The gizmotron installs in three steps.' }]);
    const files = [
      new File([new Uint8Array(pdf)], 'refunds.pdf', { type: 'application/pdf' }),
      new File([new Uint8Array(docx)], 'install.docx'),
      new File(['MZ binary'], 'tool.exe'),
    ];
    await m.uploadFiles(files);
    const byName = Object.fromEntries(m.uploads.value.map((u) => [u.name, u]));
    expect(byName['refunds.pdf']).toMatchObject({ state: 'done', progress: 1, error: null });
    expect(byName['install.docx']).toMatchObject({ state: 'done', progress: 1 });
    expect(byName['tool.exe']!.state).toBe('failed');
    expect(byName['tool.exe']!.error).toMatch(/Unsupported file type/);
    const titles = m.docs.data.value!.items.map((d) => d.title);
    expect(titles).toHaveLength(2);
    expect(m.docs.data.value!.items.every((d) => d.status === 'ready' && d.chunkCount > 0 && d.source === 'file')).toBe(true);
    expect(m.kb.data.value?.documentCount).toBe(2);

    m.clearFinishedUploads();
    expect(m.uploads.value).toEqual([]);
  });

  it('shows the 413 message of a file over the 25 MiB limit, the other file still goes in', async () => {
    const m = createKnowledgeBaseModel(client, kbId, { uploader: fetchUploader(client) });
    const big = new File([new Uint8Array(25 * 1024 * 1024 + 10).fill(97)], 'huge.txt');
    await m.uploadFiles([big, new File(['Small notes about otters.'], 'small.txt')]);
    const huge = m.uploads.value.find((u) => u.name === 'huge.txt')!;
    expect(huge.state).toBe('failed');
    expect(huge.error).toMatch(/exceeds the 25 MiB/);
    expect(m.uploads.value.find((u) => u.name === 'small.txt')!.state).toBe('done');
  });

  it('adds markdown, and keeps the typed content when the server refuses it', async () => {
    const m = createKnowledgeBaseModel(client, kbId);
    m.textForm.title.value = 'Empty';
    m.textForm.content.value = '   ';
    expect(await m.addText()).toBeUndefined();
    expect(m.textForm.submit.fieldError('content')).toBe('must not be empty');
    expect(m.textForm.content.value).toBe('   ');

    m.textForm.title.value = 'Opening hours';
    m.textForm.content.value = '# Hours\n\nThe kiosk opens at nine sharp.';
    const doc = await m.addText();
    expect(doc).toMatchObject({ title: 'Opening hours', status: 'ready' });
    expect(m.textForm.title.value).toBe('');
  });

  it('crawls a local site: the live list shows progress until the crawl is ready, then re-sync and delete', async () => {
    const m = createKnowledgeBaseModel(client, kbId, { pollMs: 50 });
    await m.load();
    m.watch();
    m.urlForm.url.value = `${site.origin}/`;
    m.urlForm.crawl.value = true;
    m.urlForm.maxPages.value = '4';
    m.urlForm.maxDepth.value = '1';
    const doc = await m.addUrl();
    expect(doc).toMatchObject({ source: 'crawl' });
    // Poll as the page does and record what the user would see.
    const seen = new Set<string>();
    const deadline = Date.now() + 15_000;
    let current: KbDocument | undefined;
    while (Date.now() < deadline) {
      current = m.docs.data.value?.items.find((d) => d.id === doc!.id);
      if (current) seen.add(current.status);
      if (current && isActive(current)) {
        const line = describeProgress(current);
        expect(line).toBeTruthy();
        const f = progressFraction(current);
        if (f !== null) expect(f).toBeGreaterThanOrEqual(0);
      }
      if (current?.status === 'ready') break;
      await new Promise((r) => setTimeout(r, 25));
    }
    m.stop();
    expect(current?.status).toBe('ready');
    expect(seen.has('processing') || seen.has('queued')).toBe(true);
    expect(current!.chunkCount).toBeGreaterThanOrEqual(4);
    expect(m.active.value).toBe(false);

    expect(await m.resync(doc!.id)).toBe(true);
    expect(m.docs.data.value!.items.find((d) => d.id === doc!.id)!.status).toMatch(/queued|processing|ready/);

    expect(await m.deleteDocument(doc!.id)).toBe(true);
    expect(m.docs.data.value!.items.some((d) => d.id === doc!.id)).toBe(false);
  });

  it('refuses a private-looking bad URL with the server message at the url field', async () => {
    const m = createKnowledgeBaseModel(client, kbId);
    m.urlForm.url.value = 'ftp://example.com/file';
    expect(await m.addUrl()).toBeUndefined();
    expect(m.urlForm.submit.error.value?.message).toMatch(/url/i);
    expect(m.urlForm.url.value).toBe('ftp://example.com/file');
  });

  it('test retrieval ranks the passage that answers first, with scores', async () => {
    const m = createKnowledgeBaseModel(client, kbId);
    m.search.query.value = 'how long do refunds of the quasar plan take';
    const hits = await m.runSearch();
    expect(hits!.length).toBeGreaterThan(0);
    expect(hits![0]!.text).toMatch(/seven days/);
    expect(hits![0]!.score).toBeGreaterThan(0);
    const scores = hits!.map((h) => h.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it('renames the base, then deletes it', async () => {
    const id = (await client.post<{ id: string }>('/knowledge-bases', { name: 'Temp' })).id;
    const m = createKnowledgeBaseModel(client, id);
    await m.load();
    expect(m.settings.name.value).toBe('Temp');
    m.settings.name.value = '';
    expect(await m.saveSettings()).toBeUndefined();
    expect(m.settings.submit.fieldError('name')).toBeTruthy();
    m.settings.name.value = 'Renamed';
    m.settings.description.value = 'Now described';
    expect(await m.saveSettings()).toMatchObject({ name: 'Renamed', description: 'Now described' });
    expect(m.kb.data.value?.name).toBe('Renamed');
    expect(await m.deleteBase()).toBe(true);
    const again = createKnowledgeBaseModel(client, id);
    await again.load();
    expect(again.kb.error.value?.kind).toBe('not_found');
  });
});
