import type dns from 'node:dns';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOpenAi } from '../../../test/fake-openai.js';
import type { FakeProvider } from '../../../test/fake-llm.js';
import { setupShop } from '../../../test/fixtures.js';
import { client } from '../../../test/http.js';
import { startServer, testConfig, type TestServer } from '../../../test/test-server.js';
import type { Config } from '../../config.js';
import { createProviders } from './index.js';
import { collectEvents } from '../../../test/answer-events.js';
import { ProviderError } from '../../net/provider-http.js';
import { createModelUrlGuard, type LookupAll } from './model-url-guard.js';
import { createOpenAiProvider } from './openai.js';
import type { AnswerRequest } from './types.js';

const request = (baseUrl: string): AnswerRequest => ({
  question: 'q',
  passages: [],
  history: [],
  systemPrompt: 's',
  variables: {},
  language: 'en',
  maxResponseLength: 200,
  model: { provider: 'openai', name: 'm', baseUrl },
});

/**
 * A fake DNS: names map to addresses, and a name may answer differently the next time (DNS
 * rebinding: public when the assistant is saved, loopback when the chat connects).
 */
function fakeDns(table: Record<string, string[]>): LookupAll & { calls: string[] } {
  const calls: string[] = [];
  const resolve = ((host: string, _o: dns.LookupAllOptions, cb: (err: NodeJS.ErrnoException | null, a: dns.LookupAddress[]) => void) => {
    calls.push(host);
    const answers = table[host];
    const address = answers && (answers.length > 1 ? answers.shift() : answers[0]);
    if (!address) return cb(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }), []);
    cb(null, [{ address, family: address.includes(':') ? 6 : 4 }]);
  }) as LookupAll & { calls: string[] };
  resolve.calls = calls;
  return resolve;
}

let fake: FakeProvider;
let server: TestServer;
let port: string;
beforeEach(async () => {
  fake = await startFakeOpenAi({ apiKey: null, reply: { chunks: ['Refunds take 5 days [1].'] } });
  port = new URL(fake.url).port;
});
afterEach(async () => {
  await server.close();
  await fake.close();
});

/** A server whose providers come from its config (as in production), with a fake DNS. */
async function start(config: Partial<Config>, table: Record<string, string[]> = {}) {
  const resolve = fakeDns(table);
  server = await startServer({ config, providers: createProviders(testConfig(config), { resolve }) });
  return resolve;
}

const model = (baseUrl: string, provider = 'openai') => ({ model: { provider, name: 'llama3.2', baseUrl } });

describe('model.baseUrl is refused when it points at a private address (SSRF)', () => {
  it('when saved: literal loopback/link-local/private addresses in every spelling, localhost, and names resolving to them', async () => {
    await start({}, { 'internal.test': ['10.0.0.5'], 'metadata.test': ['169.254.169.254'], 'v6.test': ['::1'] });
    const shop = await setupShop(server.url);
    const hostile = [
      `http://127.0.0.1:${port}/v1`,
      'http://169.254.169.254/latest/meta-data',
      'http://[::ffff:127.0.0.1]/v1',
      `http://2130706433:${port}/v1`,
      'http://0x7f.1/v1',
      'http://[::1]:11434/v1',
      `http://localhost:${port}/v1`,
      'http://api.localhost/v1',
      'http://192.168.1.10:8000/v1',
      'http://internal.test/v1',
      'https://metadata.test/',
      'http://v6.test/v1',
    ];
    for (const url of hostile) {
      for (const provider of ['openai', 'anthropic']) {
        const res = await shop.api.patch(`/v1/assistants/${shop.assistantId}`, model(url, provider));
        expect(res.status, `${provider} ${url}`).toBe(400);
        expect(res.body.error.code).toBe('validation_error');
        expect(res.body.error.message, url).toMatch(
          /^model\.baseUrl: must not point at .*(MODEL_ALLOW_PRIVATE=true|MODEL_BASE_URL_ALLOWLIST)/,
        );
      }
    }
    const created = await shop.api.post('/v1/assistants', { type: 'api', name: 'x', ...model('http://169.254.169.254/') });
    expect(created.status).toBe(400);
    // A public name is fine (and nothing is fetched when saving).
    expect((await shop.api.patch(`/v1/assistants/${shop.assistantId}`, model('http://unknown-public.test/v1'))).status).toBe(200);
    expect(fake.requests).toHaveLength(0);
  });

  it('when connecting: a name that resolved to a public address when saved and to 127.0.0.1 now (DNS rebinding) is refused; the tenant learns nothing', async () => {
    const dnsCalls = await start({}, { 'rebind.test': ['93.184.216.34', '127.0.0.1'] });
    const shop = await setupShop(server.url, { fallback: { message: 'Sorry, try again later.', suggestions: false } });
    const saved = await shop.api.patch(`/v1/assistants/${shop.assistantId}`, model(`http://rebind.test:${port}/v1`));
    expect(saved.status).toBe(200);
    const chat = await shop.api.post(shop.chatPath, { message: 'How long do refunds take?', sessionId: 'rebind' });
    expect(chat.status).toBe(200);
    expect(chat.body.response).toBe('Sorry, try again later.');
    expect(fake.requests).toHaveLength(0); // never connected
    expect(dnsCalls.calls.filter((h) => h === 'rebind.test').length).toBeGreaterThanOrEqual(2);
    const stored = (await shop.api.get('/v1/conversations/rebind/messages')).body.at(-1);
    expect(stored.metadata.providerError).toEqual({ code: 'provider_error' });
  });

  it('when connecting: a literal private address saved before this check (or behind the API) is never contacted', async () => {
    await start({});
    const shop = await setupShop(server.url, { fallback: { message: 'Sorry.', suggestions: false } });
    // Written past the API (which refuses it now), through the storage port so it runs on either dialect.
    const row = await server.ctx.storage.get<{ config: string }>('SELECT config FROM assistants WHERE id = ?', [shop.assistantId]);
    const config = {
      ...JSON.parse(row?.config ?? '{}'),
      model: { provider: 'openai', name: 'llama3.2', baseUrl: `http://127.0.0.1:${port}/v1` },
    };
    await server.ctx.storage.run('UPDATE assistants SET config = ? WHERE id = ?', [JSON.stringify(config), shop.assistantId]);
    const chat = await shop.api.post(shop.chatPath, { message: 'How long do refunds take?' });
    expect(chat.body.response).toBe('Sorry.');
    expect(fake.requests).toHaveLength(0);
    // Unrelated edits still save, with the problem as a warning.
    const renamed = await shop.api.patch(`/v1/assistants/${shop.assistantId}`, { name: 'Renamed' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.warnings.join(' ')).toMatch(/model\.baseUrl must not point at a loopback address/);
  });
});

describe('the refusal at connect time', () => {
  it('is a non-retryable provider error naming the settings (server log only), for names and literals alike', async () => {
    server = await startServer();
    const urlGuard = createModelUrlGuard({
      allowPrivate: false,
      allowlist: [],
      trusted: [],
      resolve: fakeDns({ 'rebind.test': ['127.0.0.1'] }),
    });
    const provider = createOpenAiProvider({ urlGuard, retry: { retries: 2, baseDelayMs: 2_000, maxDelayMs: 8_000 } });
    for (const baseUrl of [`http://rebind.test:${port}/v1`, `http://[::ffff:127.0.0.1]:${port}/v1`]) {
      const t0 = performance.now();
      const failure = await collectEvents(provider.answer(request(baseUrl), {})).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(ProviderError);
      expect(failure).toMatchObject({
        code: 'bad_request',
        retryable: false,
        message: expect.stringMatching(/loopback.*MODEL_ALLOW_PRIVATE=true or list it in MODEL_BASE_URL_ALLOWLIST/),
      });
      expect(performance.now() - t0).toBeLessThan(1_000); // not retried (a retry would wait 1-2 s)
    }
    expect(fake.requests).toHaveLength(0);
  });
});

describe('operator settings', () => {
  it('MODEL_BASE_URL_ALLOWLIST lets a private Ollama/vLLM through (and only what is under it)', async () => {
    await start({ modelBaseUrlAllowlist: [`http://127.0.0.1:${port}/v1`] });
    const shop = await setupShop(server.url);
    expect((await shop.api.patch(`/v1/assistants/${shop.assistantId}`, model(`http://127.0.0.1:${port}/v2`))).status).toBe(400);
    expect((await shop.api.patch(`/v1/assistants/${shop.assistantId}`, model(`http://127.0.0.1:${port}/v1/`))).status).toBe(200);
    const chat = await shop.api.post(shop.chatPath, { message: 'How long do refunds take?' });
    expect(chat.body.response).toBe('Refunds take 5 days [1].');
    expect(fake.requests).toHaveLength(1);
  });

  it('MODEL_ALLOW_PRIVATE=true allows private addresses; upstream errors still reach the tenant only as a generic code', async () => {
    await start({ modelAllowPrivate: true });
    const shop = await setupShop(server.url, { fallback: { message: 'Sorry.', suggestions: false } });
    expect((await shop.api.patch(`/v1/assistants/${shop.assistantId}`, model(`http://127.0.0.1:${port}/v1`))).status).toBe(200);
    fake.enqueue({ kind: 'error', status: 418, message: 'I am a teapot at 10.0.0.7' });
    const res = await shop.api.post(shop.chatPath, { message: 'How long do refunds take?', sessionId: 'teapot' });
    expect(res.body.response).toBe('Sorry.');
    const stored = (await shop.api.get('/v1/conversations/teapot/messages')).body.at(-1);
    expect(stored.metadata.providerError).toEqual({ code: 'provider_error' }); // was { code: 'bad_request', status: 418 }
    expect(JSON.stringify(stored)).not.toMatch(/418|teapot/);
  });

  it("the operator's own OPENAI_BASE_URL is trusted even on loopback", async () => {
    await start({ openaiBaseUrl: `${fake.url}/v1` });
    const shop = await setupShop(server.url, { model: { provider: 'openai', name: 'llama3.2' } });
    expect((await shop.api.post(shop.chatPath, { message: 'How long do refunds take?' })).body.response).toBe('Refunds take 5 days [1].');
    expect((await shop.api.patch(`/v1/assistants/${shop.assistantId}`, model(`${fake.url}/v1`))).status).toBe(200); // the same base URL, named explicitly
    expect((await client(server.url).get('/healthz')).status).toBe(200);
  });

  it('MODEL_BASE_URL_ALLOWLIST and MODEL_ALLOW_PRIVATE are read from the environment', async () => {
    const { loadConfig, ConfigError } = await import('../../config.js');
    const c = loadConfig({
      MODEL_ALLOW_PRIVATE: 'true',
      MODEL_BASE_URL_ALLOWLIST: 'http://10.0.0.5:11434/v1, http://gpu.internal:8000/v1',
    });
    expect(c.modelAllowPrivate).toBe(true);
    expect(c.modelBaseUrlAllowlist).toEqual(['http://10.0.0.5:11434/v1', 'http://gpu.internal:8000/v1']);
    expect(loadConfig({}).modelAllowPrivate).toBe(false);
    expect(() => loadConfig({ MODEL_BASE_URL_ALLOWLIST: 'not a url' })).toThrow(ConfigError);
    await start({});
  });
});
