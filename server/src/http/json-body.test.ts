import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupShop } from '../../test/fixtures.js';
import { client } from '../../test/http.js';
import { startServer, type TestServer } from '../../test/test-server.js';
import { jsonByteLength } from '../lib/json-size.js';
import { MAX_JSON_DEPTH, jsonDepth } from './json-body.js';

let server: TestServer;
let shop: Awaited<ReturnType<typeof setupShop>>;
beforeAll(async () => {
  server = await startServer();
  shop = await setupShop(server.url);
});
afterAll(async () => {
  await server.close();
});

/** Raw bytes to a route (fetch, so any bytes and headers can be sent). */
async function send(path: string, body: Uint8Array | string, headers: Record<string, string> = {}) {
  const res = await fetch(server.url + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${shop.token}`, 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : new Blob([new Uint8Array(body)]),
  });
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as { status?: string; error: { code: string; message: string } } };
}

const nested = (depth: number, inner = '1'): string => '{"a":'.repeat(depth) + inner + '}'.repeat(depth);

describe('JSON bodies: nesting depth (at most 32 levels)', () => {
  it('counts depth in one pass, ignoring brackets inside strings and escaped quotes', () => {
    expect(jsonDepth(Buffer.from('{"a":[1,{"b":"[[[{"}]}'))).toBe(3);
    expect(jsonDepth(Buffer.from('{"a":"\\"[[[","b":[]}'))).toBe(2);
    expect(jsonDepth(Buffer.from(nested(40_000)), 32)).toBe(33); // stops early
  });

  it('refuses 40,000 levels of chat metadata (was a stack overflow, 500) with a 400 naming the limit, in both error forms', async () => {
    const hostile = `{"message":"hi","metadata":${nested(40_000)}}`;
    expect(hostile.length).toBeLessThan(300_000);
    const bare = await send(shop.chatPath, hostile);
    expect(bare.status).toBe(400);
    expect(bare.body).toEqual({ error: { code: 'INVALID_REQUEST', message: expect.stringContaining('32 levels') } });
    const envelope = await send('/v1/knowledge-bases', hostile);
    expect(envelope.status).toBe(400);
    expect(envelope.body).toEqual({
      status: 'error',
      error: { code: 'validation_error', message: `The JSON request body is nested more than ${MAX_JSON_DEPTH} levels deep` },
    });
    const widget = await send(`/v1/widget/${shop.assistantId}/chat`, hostile, { authorization: '' });
    expect(widget.status).toBe(400);
    expect((await client(server.url).get('/healthz')).status).toBe(200);
  });

  it('accepts exactly 32 levels and refuses 33', async () => {
    // The body itself is level 1, metadata level 2: 30 more inside it makes 32.
    const ok = await send(shop.chatPath, `{"message":"How long do refunds take?","metadata":${nested(31)}}`);
    expect(ok.status).toBe(200);
    const over = await send(shop.chatPath, `{"message":"How long do refunds take?","metadata":${nested(32)}}`);
    expect(over.status).toBe(400);
  });

  it('sizes metadata without recursion (same count as JSON.stringify)', () => {
    const value = JSON.parse('{"a":[1,-2.5e-7,true,null,"é\\"x",{"k":{}}],"b":"","c":[[]]}') as unknown;
    expect(jsonByteLength(value)).toBe(Buffer.byteLength(JSON.stringify(value)));
    const deep = JSON.parse(nested(100_000)) as unknown; // JSON.parse copes; JSON.stringify of it would not
    expect(jsonByteLength(deep, 8192)).toBeGreaterThan(8192);
  });
});

describe('JSON bodies: invalid UTF-8', () => {
  it('refuses a body with invalid UTF-8 instead of storing U+FFFD', async () => {
    const bytes = Buffer.concat([Buffer.from('{"name":"Help '), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}')]);
    const res = await send('/v1/knowledge-bases', bytes);
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ code: 'validation_error', message: 'The request body is not valid UTF-8' });
    const bare = await send(
      shop.chatPath,
      Buffer.concat([Buffer.from('{"message":"refunds '), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]),
    ); // a UTF-8-encoded surrogate
    expect(bare.body).toEqual({ error: { code: 'INVALID_REQUEST', message: 'The request body is not valid UTF-8' } });
  });

  it('still takes valid UTF-8, with or without a BOM, and names a non-UTF-8 charset', async () => {
    const ok = await send(
      '/v1/knowledge-bases',
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"name":"Aide – café 🎉"}')]),
    );
    expect(ok.status).toBe(201);
    expect((ok.body as unknown as { data: { name: string } }).data.name).toBe('Aide – café 🎉');
    const latin1 = await send('/v1/knowledge-bases', Buffer.from('{"name":"café"}', 'latin1'), {
      'content-type': 'application/json; charset=iso-8859-1',
    });
    expect(latin1.status).toBe(400);
    expect(latin1.body.error.message).toMatch(/charset "iso-8859-1"/);
  });
});

describe('NUL characters (PostgreSQL text cannot hold U+0000)', () => {
  it('refuses \\u0000 in a JSON string or key with 400 naming the field, and %00 in the URL, on either database', async () => {
    const named = await send('/v1/knowledge-bases', Buffer.from('{"name":"Help","description":"a\\u0000b"}'));
    expect(named.status).toBe(400);
    expect(named.body.error).toEqual({
      code: 'validation_error',
      message: '"description" contains a NUL character (U+0000), which text fields cannot hold',
    });
    const nested = await send(shop.chatPath, Buffer.from('{"message":"hi","metadata":{"tags":["ok","x\\u0000"]}}'));
    expect(nested.body).toEqual({
      error: { code: 'INVALID_REQUEST', message: '"metadata.tags[1]" contains a NUL character (U+0000), which text fields cannot hold' },
    });
    const path = await shop.api.get(`/v1/knowledge-bases/${shop.kbId}%00`);
    expect(path.status).toBe(400);
    expect(path.body.error.code).toBe('validation_error');
    const query = await shop.api.get('/v1/knowledge-bases?q=a%00b');
    expect(query.body.error).toEqual({ code: 'validation_error', message: 'Query parameter "q" contains a NUL character (%00)' });
    // An escaped backslash before u0000 is text, not a NUL.
    expect((await send('/v1/knowledge-bases', Buffer.from('{"name":"a\\\\u0000"}'))).status).toBe(201);
  });
});

describe('JSON bodies: Content-Encoding', () => {
  it('refuses a body labelled gzip or deflate that is not (was 500), and inflates one that is', async () => {
    for (const encoding of ['gzip', 'deflate', 'br']) {
      const res = await send('/v1/knowledge-bases', '{"name":"x"}', { 'content-encoding': encoding });
      expect(res.status, encoding).toBe(400);
      expect(res.body.error).toEqual({
        code: 'validation_error',
        message: `The request body is not valid ${encoding} data (Content-Encoding: ${encoding})`,
      });
    }
    const bare = await send(shop.chatPath, '{"message":"hi"}', { 'content-encoding': 'gzip' });
    expect(bare.status).toBe(400);
    expect(bare.body.error.code).toBe('INVALID_REQUEST');
    const real = await send('/v1/knowledge-bases', zlib.gzipSync('{"name":"Zipped"}'), { 'content-encoding': 'gzip' });
    expect(real.status).toBe(201);
  });

  it('refuses a compressed multipart upload instead of parsing it as garbage', async () => {
    const form = new FormData();
    form.append('file', new Blob(['Refunds take 5 days.']), 'refunds.txt');
    const res = await fetch(`${server.url}/v1/knowledge-bases/${shop.kbId}/documents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${shop.token}`, 'content-encoding': 'gzip' },
      body: form,
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      status: 'error',
      error: { code: 'validation_error', message: expect.stringContaining('Content-Encoding gzip is not accepted') },
    });
  });

  it('refuses a multipart text field that is not UTF-8', async () => {
    const boundary = 'xYzBoundary';
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\n`),
      Buffer.from([0x43, 0x61, 0x66, 0xe9]), // "Caf" + latin-1 é
      Buffer.from(
        `\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nRefunds take 5 days.\r\n--${boundary}--\r\n`,
      ),
    ]);
    const res = await fetch(`${server.url}/v1/knowledge-bases/${shop.kbId}/documents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${shop.token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe('`title` is not valid UTF-8');
  });
});

describe('path parameters with malformed percent-encoding', () => {
  it('answer 400 (was 500) on every route shape, in the bare form on integrations chat', async () => {
    for (const path of [
      '/v1/knowledge-bases/%ZZ',
      '/api/v1/assistants/%E0%A4%A',
      '/v1/conversations/%ZZ/messages',
      `/v1/knowledge-bases/${shop.kbId}/documents/%ZZ`,
    ]) {
      const res = await client(server.url, shop.token).get(path);
      expect(res.status, path).toBe(400);
      expect(res.body, path).toEqual({
        status: 'error',
        error: { code: 'validation_error', message: 'Malformed percent-encoding in the request path' },
      });
    }
    const bare = await client(server.url, shop.token).post('/v1/integrations/%ZZ/chat', { message: 'hi' });
    expect(bare.status).toBe(400);
    expect(bare.body).toEqual({ error: { code: 'INVALID_REQUEST', message: 'Malformed percent-encoding in the request path' } });
    const demo = await client(server.url).get('/demo/docs/%ZZ');
    expect(demo.status).toBe(400);
    const widget = await client(server.url).get('/v1/widget/%ZZ/config');
    expect(widget.status).toBe(400);
  });
});
