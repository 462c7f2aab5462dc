import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, registerAccount } from '../../../test/http.js';
import { startServer, type TestServer } from '../../../test/test-server.js';
import { makeDocx, makeEncryptedPdf, makeGarbagePdf, makeOtherZip, makePdf } from '../../../test/document-files.js';
import { cleanTitle, decodeText, firstMarkdownHeading, MAX_FILE_BYTES } from './upload.js';

let server: TestServer;
let token: string;
let api: ReturnType<typeof client>;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});
/** Each block acts as its own account: the free plan's 60 requests a minute are per credential. */
const asNewAccount = (): void => {
  beforeAll(async () => {
    ({ token, api } = await registerAccount(server.url, 'Uploads'));
  });
};

type Body = Uint8Array | string;
interface Sent {
  status: number;
  body: any;
}

/** POSTs a multipart form: `files` become file parts (name, filename, bytes), `fields` text parts. */
async function post(
  kbId: string,
  files: { field?: string; name: string; data: Body; type?: string }[],
  fields: Record<string, string> = {},
  bearer = token,
): Promise<Sent> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const f of files)
    form.append(f.field ?? 'file', new Blob([f.data as BlobPart], { type: f.type ?? 'application/octet-stream' }), f.name);
  const res = await fetch(`${server.url}/v1/knowledge-bases/${kbId}/documents`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bearer}` },
    body: form,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}
const upload = (kbId: string, name: string, data: Body, fields: Record<string, string> = {}): Promise<Sent> =>
  post(kbId, [{ name, data }], fields);

const newKb = async (name = 'Files'): Promise<string> => (await api.post('/v1/knowledge-bases', { name })).body.data.id as string;
const search = async (kbId: string, query: string): Promise<any[]> => {
  const res = await api.post(`/v1/knowledge-bases/${kbId}/search`, { query });
  expect(res.status).toBe(200);
  return res.body.data as any[];
};
const expectError = (res: Sent, status: number, code: string, message: RegExp): void => {
  expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status, code });
  expect(res.body.error.message).toMatch(message);
};
const sourceOptions = async (docId: string): Promise<unknown> =>
  JSON.parse(
    (await server.ctx.storage.get<{ source_options: string }>('SELECT source_options FROM documents WHERE id = ?', [docId]))
      ?.source_options ?? 'null',
  );

const MANUAL_PAGES = [
  ['# Getting started', 'Unpack the device and charge the battery for two hours before the first use.'],
  ['# Cleaning', 'Wipe the lens with a dry microfiber cloth. Never use alcohol or window cleaner on the coated glass surface.'],
  [],
  [
    '# Warranty',
    'The warranty covers manufacturing defects for twenty-four months from the date of purchase. Keep the receipt as proof of purchase.',
  ],
];

describe('uploading each file type (API.md §6)', () => {
  asNewAccount();

  it('a .txt file: format text, titled after the file name, searchable', async () => {
    const kbId = await newKb();
    const text = '\ufeffOur office opens at nine in the morning.\n\nParking is available behind the building for visitors.\n';
    const res = await upload(kbId, 'office-hours.txt', text);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      knowledgeBaseId: kbId,
      title: 'office-hours',
      url: null,
      format: 'text',
      source: 'file',
      status: 'ready',
      chunkCount: 1,
      bytes: Buffer.byteLength(text),
    });
    expect(await sourceOptions(res.body.data.id)).toEqual({ fileName: 'office-hours.txt' });
    const hits = await search(kbId, 'where can visitors park');
    expect(hits[0]).toMatchObject({ documentId: res.body.data.id, title: 'office-hours' });
    expect(hits[0].text).toContain('Parking is available behind the building');
    expect(hits[0].text).not.toContain('\ufeff');
  });

  it('a .md file: format markdown, titled by its first heading, chunked by headings', async () => {
    const kbId = await newKb();
    const md =
      '# Router guide\n\n## Reset the router\n\nHold the reset button for ten seconds until the light blinks.\n\n## Update the firmware\n\nOpen the admin page and choose Update.\n';
    const res = await upload(kbId, 'guide.md', md, { url: 'https://docs.example.com/router' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      title: 'Router guide',
      url: 'https://docs.example.com/router',
      format: 'markdown',
      chunkCount: 2,
    });
    const hits = await search(kbId, 'how to reset the router');
    expect(hits[0]).toMatchObject({ url: 'https://docs.example.com/router' });
    expect(hits[0].text).toContain('Hold the reset button');
  });

  it('an .html file: format html, titled by <title>, scripts and navigation dropped', async () => {
    const kbId = await newKb();
    const html = `<!doctype html><html><head><title>Billing FAQ</title><script>var trackingSecret = 1;</script></head>
      <body><nav><a href="/">Home</a></nav><main><h1>Billing</h1><h2>Invoices</h2><p>Invoices are emailed on the first day of every month.</p></main></body></html>`;
    const res = await upload(kbId, 'billing.HTM', html);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ title: 'Billing FAQ', format: 'html', chunkCount: 1 });
    const hits = await search(kbId, 'when are invoices emailed');
    expect(hits[0].text).toContain('Invoices are emailed on the first day');
    expect(JSON.stringify(hits)).not.toMatch(/trackingSecret|<p>/);
  });

  it('a .pdf file: format pdf, one part per page, hits carry their page number', async () => {
    const kbId = await newKb();
    const pdf = await makePdf(MANUAL_PAGES, { title: 'Camera manual' });
    const res = await upload(kbId, 'camera.pdf', pdf);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ title: 'Camera manual', format: 'pdf', source: 'file', chunkCount: 3, bytes: pdf.length });
    const cleaning = await search(kbId, 'how do I clean the lens');
    expect(cleaning[0]).toMatchObject({ documentId: res.body.data.id, title: 'Camera manual', page: 2 });
    expect(cleaning[0].text).toBe(
      'Cleaning\n\nWipe the lens with a dry microfiber cloth. Never use alcohol or window cleaner on the coated glass surface.',
    );
    // Page 3 has no text: the warranty is on page 4.
    expect((await search(kbId, 'warranty manufacturing defects'))[0]).toMatchObject({ page: 4 });
  });

  it('a .docx file: format docx, titled from its core properties, Word headings kept as sections', async () => {
    const kbId = await newKb();
    const docx = await makeDocx(
      [
        { text: 'Employee handbook', style: 'Heading1' },
        { text: 'Welcome to the team.' },
        { text: 'Holidays', style: 'Heading2' },
        { text: 'Every employee gets twenty-eight days of paid holiday per year.' },
        { text: 'Expenses & travel', style: 'Heading2' },
        { text: 'Submit travel expenses within thirty days with the receipts attached.' },
      ],
      { title: 'Handbook 2025' },
    );
    const res = await upload(kbId, 'handbook.docx', docx, { url: 'https://intranet.example.com/handbook' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ title: 'Handbook 2025', format: 'docx', chunkCount: 3, bytes: docx.length });
    const hits = await search(kbId, 'how many days of paid holiday');
    expect(hits[0]).toMatchObject({ url: 'https://intranet.example.com/handbook' });
    expect(hits[0].text).toBe('Every employee gets twenty-eight days of paid holiday per year.');
    expect((await search(kbId, 'travel expenses receipts'))[0].url).toBe('https://intranet.example.com/handbook');
  });

  it('a chat answer from a PDF cites the page', async () => {
    const kbId = await newKb('Manuals');
    expect((await upload(kbId, 'camera.pdf', await makePdf(MANUAL_PAGES, { title: 'Camera manual' }))).status).toBe(201);
    const assistant = await api.post('/v1/assistants', { type: 'api', name: 'Camera help', knowledgeBases: [{ id: kbId, priority: 5 }] });
    expect(assistant.status).toBe(201);
    const chat = await api.post(`/v1/integrations/${assistant.body.data.id}/chat`, {
      message: 'How long does the warranty cover manufacturing defects?',
    });
    expect(chat.status).toBe(200);
    expect(chat.body.response).toMatch(/twenty-four months/);
    expect(chat.body.sources[0]).toMatchObject({ title: 'Camera manual, p. 4' });
  });
});

describe('titles and fields', () => {
  asNewAccount();

  it('defaults: PDF without metadata and .txt → file name; DOCX without a core title → first heading; HTML without <title> → first heading', async () => {
    const kbId = await newKb();
    expect((await upload(kbId, 'Quarterly report.final.pdf', await makePdf([['Revenue grew by ten percent.']]))).body.data.title).toBe(
      'Quarterly report.final',
    );
    expect((await upload(kbId, 'notes.markdown', 'Just a note without any heading.')).body.data).toMatchObject({
      title: 'notes',
      format: 'markdown',
    });
    const docx = await makeDocx([{ text: 'Onboarding checklist', style: 'Heading1' }, { text: 'Get a laptop.' }]);
    expect((await upload(kbId, 'x.docx', docx)).body.data.title).toBe('Onboarding checklist');
    expect((await upload(kbId, 'page.html', '<h2>Opening &amp; hours</h2><p>We open at nine.</p>')).body.data.title).toBe(
      'Opening & hours',
    );
    expect((await upload(kbId, 'résumé.txt', 'Ten years of experience.')).body.data.title).toBe('résumé');
  });

  it('title and url fields override the defaults; blank ones are ignored', async () => {
    const kbId = await newKb();
    const res = await upload(kbId, 'guide.md', '# From the file\n\nBody text.', {
      title: '  Custom   title ',
      url: 'https://example.com/guide',
    });
    expect(res.body.data).toMatchObject({ title: 'Custom title', url: 'https://example.com/guide' });
    expect((await upload(kbId, 'guide.md', '# From the file\n\nBody text.', { title: ' ', url: '' })).body.data).toMatchObject({
      title: 'From the file',
      url: null,
    });
  });

  it('refuses bad fields', async () => {
    const kbId = await newKb();
    expectError(
      await upload(kbId, 'a.txt', 'text', { url: 'ftp://example.com/a' }),
      400,
      'validation_error',
      /`url` must be an http\(s\) URL/,
    );
    expectError(
      await upload(kbId, 'a.txt', 'text', { url: `https://example.com/${'a'.repeat(2048)}` }),
      400,
      'validation_error',
      /`url` must be at most 2048/,
    );
    expectError(await upload(kbId, 'a.txt', 'text', { title: 'x'.repeat(501) }), 400, 'validation_error', /`title` must be at most 500/);
    expect((await upload(kbId, 'a.txt', 'text', { title: 'é'.repeat(500) })).status).toBe(201);
    expectError(await upload(kbId, 'a.txt', 'text', { format: 'pdf' }), 400, 'validation_error', /Unknown field `format`/);
    expectError(
      await post(kbId, [
        { name: 'a.txt', data: 'one' },
        { name: 'b.txt', data: 'two' },
      ]),
      400,
      'validation_error',
      /exactly one file/,
    );
    expectError(
      await post(kbId, [{ field: 'document', name: 'a.txt', data: 'one' }]),
      400,
      'validation_error',
      /Unexpected file field `document`/,
    );
  });

  it('a missing file field → 400 saying `file` is required', async () => {
    const kbId = await newKb();
    expectError(await post(kbId, [], { title: 'No file' }), 400, 'validation_error', /`file` is required/);
    const asText = new FormData();
    asText.append('file', 'just a string');
    const res = await fetch(`${server.url}/v1/knowledge-bases/${kbId}/documents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: asText,
    });
    expectError({ status: res.status, body: await res.json() }, 400, 'validation_error', /`file` must be a file upload/);
    const noBoundary = await api.request('POST', `/v1/knowledge-bases/${kbId}/documents`, {
      rawBody: 'x',
      headers: { 'content-type': 'multipart/form-data' },
    });
    expectError(noBoundary, 400, 'validation_error', /boundary/);
    const cutOff = await api.request('POST', `/v1/knowledge-bases/${kbId}/documents`, {
      rawBody: '--b\r\ncontent-disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhello',
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
    });
    expectError(cutOff, 400, 'validation_error', /Malformed multipart/);
  });

  it('re-uploading with the same url replaces the earlier document', async () => {
    const kbId = await newKb();
    const first = await upload(kbId, 'policy.md', '# Policy\n\nReturns are accepted within 14 days.', {
      url: 'https://example.com/policy',
    });
    const second = await upload(kbId, 'policy-v2.md', '# Policy\n\nReturns are accepted within 30 days.', {
      url: 'https://example.com/policy',
    });
    expect(second.status).toBe(201);
    const docs = await api.get(`/v1/knowledge-bases/${kbId}/documents`);
    expect(docs.body.data.map((d: { id: string }) => d.id)).toEqual([second.body.data.id]);
    expect((await api.get(`/v1/knowledge-bases/${kbId}/documents/${first.body.data.id}`)).status).toBe(404);
    const hits = await search(kbId, 'returns accepted days');
    expect(hits.map((h) => h.text)).toEqual(['Returns are accepted within 30 days.']);
  });

  it("another organization's knowledge base → 404", async () => {
    const other = await registerAccount(server.url, 'Other');
    const theirKb = (await other.api.post('/v1/knowledge-bases', { name: 'Theirs' })).body.data.id as string;
    expectError(await upload(theirKb, 'a.txt', 'hello there'), 404, 'resource_not_found', /Knowledge base not found/);
    expect((await other.api.get(`/v1/knowledge-bases/${theirKb}/documents`)).body.data).toEqual([]);
  });
});

describe('size limit: 25 MiB', () => {
  asNewAccount();

  it('accepts a file of exactly 25 MiB', async () => {
    const kbId = await newKb();
    const head = 'The archive holds the complete shipping ledger.\n\n';
    // Mostly padding: the point is the byte count, not the chunking time.
    const body = Buffer.alloc(MAX_FILE_BYTES, 0x20);
    body.write(head);
    body.write('end.\n', MAX_FILE_BYTES - 5);
    const res = await upload(kbId, 'ledger.txt', body);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ bytes: MAX_FILE_BYTES, format: 'text' });
  });

  it('refuses 25 MiB + 1 byte with 413 payload_too_large, and stays usable', async () => {
    const kbId = await newKb();
    const res = await upload(kbId, 'big.txt', Buffer.alloc(MAX_FILE_BYTES + 1, 0x61));
    expectError(res, 413, 'payload_too_large', /25 MiB/);
    expect((await api.get(`/v1/knowledge-bases/${kbId}/documents`)).body.pagination.total).toBe(0);
    expect((await upload(kbId, 'small.txt', 'Still works after a refused upload.')).status).toBe(201);
  });

  it('answers 413 on the same keep-alive connection and serves the next request on it', async () => {
    const kbId = await newKb();
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const boundary = 'parleyboundary';
    const head = Buffer.from(
      `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="big.txt"\r\ncontent-type: text/plain\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const payload = Buffer.alloc(MAX_FILE_BYTES + 4096, 0x62);
    const send = (body: Buffer | null): Promise<{ status: number; text: string; socket: unknown }> =>
      new Promise((resolve, reject) => {
        const req = http.request(
          `${server.url}/v1/knowledge-bases/${kbId}/${body ? 'documents' : 'documents?page=1'}`,
          {
            method: body ? 'POST' : 'GET',
            agent,
            headers: {
              authorization: `Bearer ${token}`,
              ...(body
                ? {
                    'content-type': `multipart/form-data; boundary=${boundary}`,
                    'content-length': String(head.length + body.length + tail.length),
                  }
                : {}),
            },
          },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (c: string) => {
              text += c;
            });
            res.on('end', () => resolve({ status: res.statusCode ?? 0, text, socket: res.socket }));
          },
        );
        req.on('error', reject);
        if (body) {
          req.write(head);
          req.write(body);
          req.end(tail);
        } else req.end();
      });
    const refused = await send(payload);
    expect(refused.status).toBe(413);
    expect(JSON.parse(refused.text).error.code).toBe('payload_too_large');
    const next = await send(null);
    expect(next.status).toBe(200);
    expect(next.socket).toBe(refused.socket);
    agent.destroy();
  });
});

describe('an upload cut off by the client', () => {
  asNewAccount();

  it('leaves nothing behind and the server carries on', async () => {
    const kbId = await newKb();
    await new Promise<void>((resolve) => {
      const req = http.request(`${server.url}/v1/knowledge-bases/${kbId}/documents`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'multipart/form-data; boundary=b', 'content-length': '100000' },
      });
      req.on('error', () => resolve());
      req.write('--b\r\ncontent-disposition: form-data; name="file"; filename="a.txt"\r\n\r\nThe first half of a file');
      setTimeout(() => req.destroy(), 50);
    });
    expect((await api.get(`/v1/knowledge-bases/${kbId}/documents`)).body.pagination.total).toBe(0);
    expect((await upload(kbId, 'whole.txt', 'A complete file.')).status).toBe(201);
  });
});

describe('refused content', () => {
  asNewAccount();

  it('unknown types → 400 naming the accepted types', async () => {
    const kbId = await newKb();
    expectError(
      await upload(kbId, 'sheet.xlsx', await makeOtherZip()),
      400,
      'validation_error',
      /Unsupported file type "\.xlsx": accepted types are \.txt, \.md, \.html, \.pdf, \.docx/,
    );
    expectError(await upload(kbId, 'README', 'hello'), 400, 'validation_error', /no extension.*accepted types/);
    expectError(
      await upload(kbId, 'binary.txt', Buffer.from([0x48, 0x69, 0x00, 0x01, 0x02, 0xff])),
      400,
      'validation_error',
      /not text.*accepted types are/,
    );
  });

  it('content that does not match the extension → 400', async () => {
    const kbId = await newKb();
    expectError(
      await upload(kbId, 'fake.pdf', 'This is plain text, not a PDF.'),
      400,
      'validation_error',
      /does not match its \.pdf extension/,
    );
    expectError(
      await upload(kbId, 'fake.docx', 'Plain text again.'),
      400,
      'validation_error',
      /does not match its \.docx extension: a DOCX file is a zip/,
    );
    expectError(await upload(kbId, 'sheet.docx', await makeOtherZip()), 400, 'validation_error', /holds no Word document/);
    expectError(await upload(kbId, 'real.txt', await makePdf([['text']])), 400, 'validation_error', /it is a PDF/);
  });

  it('empty files and files without text → 400', async () => {
    const kbId = await newKb();
    expectError(await upload(kbId, 'empty.txt', ''), 400, 'validation_error', /The file is empty/);
    expectError(await upload(kbId, 'empty.pdf', ''), 400, 'validation_error', /The file is empty/);
    expectError(await upload(kbId, 'blank.md', ' \n\n \t\n'), 400, 'validation_error', /no extractable text/);
    expectError(
      await upload(kbId, 'script.html', '<script>alert(1)</script><style>p{}</style>'),
      400,
      'validation_error',
      /no extractable text/,
    );
    expectError(await upload(kbId, 'scan.pdf', await makePdf([[], []])), 400, 'validation_error', /no extractable text \(a scanned PDF/);
    expectError(await upload(kbId, 'blank.docx', await makeDocx([{ text: ' ' }])), 400, 'validation_error', /no extractable text/);
  });

  it('an encrypted PDF → 400 saying it is encrypted; an owner-password-only PDF is read', async () => {
    const kbId = await newKb();
    expectError(
      await upload(kbId, 'secret.pdf', makeEncryptedPdf({ userPassword: 'hunter2', text: 'Launch codes' })),
      400,
      'validation_error',
      /encrypted/,
    );
    const open = await upload(
      kbId,
      'restricted.pdf',
      makeEncryptedPdf({ userPassword: '', text: 'Printing is restricted but reading is fine.' }),
    );
    expect(open.status).toBe(201);
    expect((await search(kbId, 'printing restricted'))[0]).toMatchObject({ page: 1, text: 'Printing is restricted but reading is fine.' });
  });

  it('a damaged PDF or DOCX → 400 saying it could not be read', async () => {
    const kbId = await newKb();
    expectError(await upload(kbId, 'broken.pdf', makeGarbagePdf()), 400, 'validation_error', /PDF could not be read/);
    const docx = await makeDocx([{ text: 'Hello' }]);
    expectError(
      await upload(kbId, 'broken.docx', docx.subarray(0, Math.floor(docx.length / 2))),
      400,
      'validation_error',
      /DOCX file could not be read/,
    );
    expect((await api.get(`/v1/knowledge-bases/${kbId}/documents`)).body.pagination.total).toBe(0);
  });
});

describe('text helpers', () => {
  it('decodeText: UTF-8 with or without BOM, UTF-16 with BOM, Windows-1252 fallback, binary refused', () => {
    expect(decodeText(Buffer.from('\ufeffhéllo', 'utf8'))).toBe('héllo');
    expect(decodeText(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('héllo', 'utf16le')]))).toBe('héllo');
    expect(decodeText(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x93, 0x71, 0x94]))).toBe('café “q”');
    expect(decodeText(Buffer.from('a\u0000b'))).toBeNull();
    expect(decodeText(Buffer.from([1, 2, 3, 4, 5, 6, 7, 8, 0x41]))).toBeNull();
  });

  it('firstMarkdownHeading: ATX or setext, outside code fences, inline markup removed', () => {
    expect(firstMarkdownHeading('intro\n\n## The **real** [title](https://x) ##\n\n# later')).toBe('The real title');
    expect(firstMarkdownHeading('```\n# not a heading\n```\nSetext title\n===\n')).toBe('Setext title');
    expect(firstMarkdownHeading('- item\n---\nplain text')).toBeNull();
  });

  it('cleanTitle: whitespace collapsed, Word prefixes unwrapped, placeholders dropped, ≤ 500 chars', () => {
    expect(cleanTitle('Microsoft Word - Annual report.docx')).toBe('Annual report');
    expect(cleanTitle('  Untitled ')).toBeNull();
    expect(cleanTitle('a\n b')).toBe('a b');
    expect(cleanTitle('x'.repeat(600))).toHaveLength(500);
  });
});
