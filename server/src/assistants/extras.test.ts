import { afterEach, describe, expect, it } from 'vitest';
import { setupShop } from '../../test/fixtures.js';
import { client, registerAccount } from '../../test/http.js';
import { startServer, type TestServer } from '../../test/test-server.js';
import { createFakeClock } from '../lib/clock.js';
import { MAX_IMAGE_BYTES } from '../assets/images.js';

let server: TestServer;
afterEach(async () => {
  await server?.close();
});

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR fake but well-headed png')]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('JFIF')]);
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0, 0, 0, 0]), Buffer.from('WEBPVP8 ')]);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

async function upload(url: string, token: string, path: string, file: Buffer, name: string, type = 'application/octet-stream') {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(file)], { type }), name);
  const res = await fetch(url + path, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  return { status: res.status, body: (await res.json()) as any };
}

describe('GET /v1/assistants stats.conversations7d', () => {
  it('counts conversations of the last 7 days per assistant, playground left out', async () => {
    const clock = createFakeClock();
    server = await startServer({ clock });
    const shop = await setupShop(server.url);
    const other = await shop.api.post('/v1/assistants', { type: 'web', name: 'Quiet' });
    await shop.api.post(shop.chatPath, { message: 'old one', sessionId: 'old' });
    clock.advance(8 * 86_400_000);
    await shop.api.post(shop.chatPath, { message: 'How long does shipping take?', sessionId: 'a' });
    await shop.api.post(shop.chatPath, { message: 'And returns?', sessionId: 'b' });
    await shop.api.post(shop.chatPath, { message: 'again in a', sessionId: 'a' });
    await shop.api.post(shop.chatPath, { message: 'testing', sessionId: 'p', metadata: { source: 'playground' } });
    const list = await shop.api.get('/v1/assistants');
    const byId = Object.fromEntries(list.body.data.map((a: { id: string; stats: unknown }) => [a.id, a.stats]));
    expect(byId[shop.assistantId]).toEqual({ conversations7d: 2 });
    expect(byId[other.body.data.id]).toEqual({ conversations7d: 0 });
  });
});

describe('POST /v1/assistants/:id/templates/test', () => {
  it('says which saved template fires, or which of the unsaved ones given', async () => {
    server = await startServer();
    const shop = await setupShop(server.url, {
      templates: [
        { trigger: 'opening hours', match: 'contains', response: 'We are open 9 to 5.' },
        { trigger: '^hi$', match: 'regex', response: 'Hello!' },
      ],
    });
    const path = `/v1/assistants/${shop.assistantId}/templates/test`;
    const saved = await shop.api.post(path, { message: 'What are your OPENING hours?' });
    expect(saved.status).toBe(200);
    expect(saved.body.data.match).toEqual({
      id: expect.stringMatching(/^tpl_/),
      trigger: 'opening hours',
      match: 'contains',
      response: 'We are open 9 to 5.',
    });
    expect((await shop.api.post(path, { message: 'HI' })).body.data.match.response).toBe('Hello!');
    expect((await shop.api.post(path, { message: 'nothing matches this' })).body.data.match).toBeNull();
    const unsaved = await shop.api.post(path, {
      message: 'refund please',
      templates: [{ trigger: 'refund', match: 'contains', response: 'See returns.' }],
    });
    expect(unsaved.body.data.match).toEqual({ id: null, trigger: 'refund', match: 'contains', response: 'See returns.' });
    const bad = await shop.api.post(path, { message: 'x', templates: [{ trigger: '(a', match: 'regex', response: 'r' }] });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^templates\.0\.trigger: /);
    // It runs the caller's patterns: the right to edit templates is needed (issue 24); another org's assistant is 404.
    expect((await shop.keyApi.post(path, { message: 'opening hours' })).status).toBe(403);
    const stranger = await registerAccount(server.url);
    expect((await stranger.api.post(path, { message: 'hi' })).status).toBe(404);
  });
});

describe('GET /v1/providers', () => {
  it('lists the providers with whether the server can use them', async () => {
    server = await startServer({ config: { anthropicApiKey: 'sk-ant-test' } });
    const { api } = await registerAccount(server.url);
    const res = await api.get('/v1/providers');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { provider: 'extractive', configured: true, defaultBaseUrl: null, defaultModel: null },
      { provider: 'openai', configured: false, defaultBaseUrl: 'https://api.openai.com/v1', defaultModel: expect.any(String) },
      { provider: 'anthropic', configured: true, defaultBaseUrl: 'https://api.anthropic.com', defaultModel: expect.any(String) },
    ]);
    expect(res.text).not.toContain('sk-ant-test');
  });
});

describe('POST /v1/assistants/:id/avatar and GET /v1/assets/:id', () => {
  it('stores an image checked by its bytes, sets avatarUrl, serves it publicly with a long cache', async () => {
    server = await startServer();
    const shop = await setupShop(server.url);
    const res = await upload(server.url, shop.token, `/v1/assistants/${shop.assistantId}/avatar`, PNG, 'me.png', 'image/png');
    expect(res.status).toBe(201);
    expect(res.body.data.avatarUrl).toMatch(new RegExp(`^${server.url}/v1/assets/ast_[A-Za-z0-9]+$`));
    expect((await shop.api.get(`/v1/assistants/${shop.assistantId}`)).body.data.avatarUrl).toBe(res.body.data.avatarUrl);
    const asset = await fetch(res.body.data.avatarUrl);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toBe('image/png');
    expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Buffer.from(await asset.arrayBuffer()).equals(PNG)).toBe(true);
    // The type comes from the content: JPEG bytes named .png are served as JPEG.
    const jpeg = await upload(server.url, shop.token, `/v1/assistants/${shop.assistantId}/avatar`, JPEG, 'lies.png', 'image/png');
    expect((await fetch(jpeg.body.data.avatarUrl)).headers.get('content-type')).toBe('image/jpeg');
    // The replaced avatar is deleted.
    expect((await fetch(res.body.data.avatarUrl)).status).toBe(404);
    const webp = await upload(server.url, shop.token, `/v1/assistants/${shop.assistantId}/avatar`, WEBP, 'a.webp');
    expect(webp.status).toBe(201);
  });

  it('refuses SVG, non-images dressed as images, and files over 1 MiB', async () => {
    server = await startServer();
    const shop = await setupShop(server.url);
    const path = `/v1/assistants/${shop.assistantId}/avatar`;
    const svg = await upload(server.url, shop.token, path, SVG, 'logo.svg', 'image/svg+xml');
    expect(svg.status).toBe(400);
    expect(svg.body.error.message).toMatch(/^file: SVG/);
    const svgAsPng = await upload(server.url, shop.token, path, SVG, 'logo.png', 'image/png');
    expect(svgAsPng.status).toBe(400);
    const html = await upload(server.url, shop.token, path, Buffer.from('<html><script>x</script>'), 'a.png', 'image/png');
    expect(html.status).toBe(400);
    expect(html.body.error.message).toMatch(/content/);
    const big = Buffer.concat([PNG, Buffer.alloc(MAX_IMAGE_BYTES)]);
    expect((await upload(server.url, shop.token, path, big, 'big.png')).status).toBe(413);
    expect((await shop.api.get(`/v1/assistants/${shop.assistantId}`)).body.data.avatarUrl).toBeNull();
    expect((await shop.api.post(path, { file: 'x' })).status).toBe(400);
  });

  it('needs assistants:write; unknown assets are 404', async () => {
    server = await startServer();
    const shop = await setupShop(server.url);
    const key = await shop.api.post('/v1/api-keys', { name: 'r', permissions: ['assistants:read'] });
    expect((await upload(server.url, key.body.data.key, `/v1/assistants/${shop.assistantId}/avatar`, PNG, 'a.png')).status).toBe(403);
    expect((await client(server.url).get('/v1/assets/ast_doesnotexist00000')).status).toBe(404);
  });
});
