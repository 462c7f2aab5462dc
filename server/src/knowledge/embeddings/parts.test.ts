import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeEmbedder, type FakeEmbedder } from '../../../test/fake-embeddings.js';
import { ProviderError } from '../../net/provider-http.js';
import { ConfigError, loadConfig } from '../../config.js';
import { createFakeClock } from '../../lib/clock.js';
import type { Logger } from '../../lib/logger.js';
import type { RetrievedChunk } from '../retrieval.js';
import { createEmbeddingClient, parseEmbeddings } from './client.js';
import { fuse, RRF_K } from './hybrid.js';
import { createQueryEmbedder } from './query-embedder.js';
import { embeddingInput } from './vector-index.js';

const chunk = (id: number, score: number, kb = 'kb_a'): RetrievedChunk => ({
  chunkId: id,
  documentId: 'd',
  knowledgeBaseId: kb,
  title: 't',
  url: null,
  headingPath: [],
  anchor: null,
  page: null,
  text: `chunk ${id}`,
  score,
});

function recordingLogger() {
  const lines: { level: string; msg: string }[] = [];
  const at = (level: string) => (msg: string) => {
    lines.push({ level, msg });
  };
  const logger: Logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
  return { logger, lines };
}

let fake: FakeEmbedder;
beforeAll(async () => {
  fake = await startFakeEmbedder({ apiKey: 'k' });
});
afterAll(async () => {
  await fake.close();
});

describe('reciprocal rank fusion', () => {
  it('adds 1/(60+rank) per list, favours chunks both lists found, then applies base priority', () => {
    const weights = new Map([
      ['kb_a', 1],
      ['kb_b', 1],
    ]);
    const lexical = [chunk(1, 9), chunk(2, 5), chunk(3, 4)];
    const dense = [
      { chunkId: 3, knowledgeBaseId: 'kb_a', distance: 0.1 },
      { chunkId: 4, knowledgeBaseId: 'kb_b', distance: 0.2 },
    ];
    const fused = fuse(lexical, dense, weights);
    expect(fused.map((c) => c.chunkId)).toEqual([3, 1, 2, 4]);
    expect(fused[0]?.fused).toBeCloseTo(1 / (RRF_K + 3) + 1 / (RRF_K + 1), 12);
    expect(fused[1]?.fused).toBeCloseTo(1 / (RRF_K + 1), 12);
    // Rank 2 of either list alone ties: BM25's wins the tie.
    expect(fused[2]?.fused).toBeCloseTo(1 / (RRF_K + 2), 12);
    expect(fused[3]?.fused).toBeCloseTo(1 / (RRF_K + 2), 12);

    // Priority weights multiply after fusion; BM25's ranks are its unweighted order.
    const favoured = fuse(
      [chunk(1, 9 * 0.6, 'kb_a'), chunk(5, 8 * 1.5, 'kb_b')],
      [],
      new Map([
        ['kb_a', 0.6],
        ['kb_b', 1.5],
      ]),
    );
    expect(favoured.map((c) => [c.chunkId, c.lexRank])).toEqual([
      [5, 2],
      [1, 1],
    ]);
  });
});

describe('question vectors', () => {
  it('caches (LRU), shares concurrent requests, and on failure skips the endpoint for the cooldown, logging once', async () => {
    const clock = createFakeClock();
    const { logger, lines } = recordingLogger();
    const client = createEmbeddingClient({ baseUrl: `${fake.url}/v1`, model: 'fake-embed', apiKey: 'k', dimensions: undefined });
    const q = createQueryEmbedder({ client, logger, clock, timeoutMs: 1_000, cooldownMs: 30_000, cacheSize: 2 });
    const n0 = fake.requests.length;
    const [a, b] = await Promise.all([q.embed('refund please'), q.embed('  refund   please ')]);
    expect(a).toBeInstanceOf(Float32Array);
    expect(b).toBe(a);
    expect(fake.requests.length - n0).toBe(1);
    await q.embed('refund please');
    expect(fake.requests.length - n0).toBe(1); // cached
    await q.embed('two');
    await q.embed('three'); // evicts the least recently used ("refund please")
    await q.embed('refund please');
    expect(fake.requests.length - n0).toBe(4);

    fake.fallback = { kind: 'error', status: 500 };
    try {
      expect(await q.embed('new question')).toBeNull();
      expect(await q.embed('another one')).toBeNull(); // cooling down: not even tried
      expect(fake.requests.length - n0).toBe(5);
      expect(await q.embed('three')).not.toBeNull(); // cached vectors still serve
      clock.advance(30_001);
      expect(await q.embed('still down')).toBeNull();
      expect(fake.requests.length - n0).toBe(6);
      expect(lines.filter((l) => l.level === 'warn')).toHaveLength(1);
    } finally {
      fake.fallback = { kind: 'ok' };
    }
    clock.advance(30_001);
    expect(await q.embed('back up')).not.toBeNull();
    expect(lines.map((l) => l.level)).toEqual(['warn', 'info']);
  });
});

describe('the embeddings client', () => {
  it('speaks the wire format and maps errors', async () => {
    const client = createEmbeddingClient({ baseUrl: `${fake.url}/v1`, model: 'fake-embed', apiKey: 'k', dimensions: 16 });
    const { vectors, model, promptTokens } = await client.embed(['a refund', 'parcel'], { timeoutMs: 1_000 });
    expect(vectors.map((v) => v.length)).toEqual([16, 16]);
    expect(model).toBe('fake-embed');
    expect(promptTokens).toBe(3);
    expect(fake.requests.at(-1)?.body).toEqual({
      model: 'fake-embed',
      input: ['a refund', 'parcel'],
      encoding_format: 'float',
      dimensions: 16,
    });

    const wrongKey = createEmbeddingClient({ baseUrl: `${fake.url}/v1`, model: 'fake-embed', apiKey: 'nope', dimensions: undefined });
    await expect(wrongKey.embed(['x'], { timeoutMs: 1_000 })).rejects.toMatchObject({ code: 'auth', status: 401 });
    const unknown = createEmbeddingClient({ baseUrl: `${fake.url}/v1`, model: 'no-such-model', apiKey: 'k', dimensions: undefined });
    await expect(unknown.embed(['x'], { timeoutMs: 1_000 })).rejects.toMatchObject({
      code: 'bad_request',
      message: expect.stringContaining('does not exist'),
    });
    fake.enqueue({ kind: 'error', status: 503 });
    const retried = await client.embed(['x'], { timeoutMs: 1_000, retry: { retries: 1, baseDelayMs: 1, maxDelayMs: 10 } });
    expect(retried.vectors).toHaveLength(1);
    fake.enqueue({ kind: 'hang' });
    await expect(client.embed(['x'], { timeoutMs: 100, retry: { retries: 0, baseDelayMs: 0, maxDelayMs: 0 } })).rejects.toMatchObject({
      code: 'timeout',
    });
  });

  it('refuses answers that break the protocol', () => {
    expect(() => parseEmbeddings('{"data":[]}', 1)).toThrow(ProviderError);
    expect(() => parseEmbeddings('{"data":[{"index":0,"embedding":"AAAA"}]}', 1)).toThrow(/encoding_format/);
    expect(() => parseEmbeddings('{"data":[{"index":0,"embedding":[1,2]},{"index":1,"embedding":[1]}]}', 2)).toThrow(/dimensions/);
    expect(() => parseEmbeddings('{"data":[{"index":0,"embedding":[1]},{"index":0,"embedding":[1]}]}', 2)).toThrow(/index/);
    // Out of order is fine: `index` decides.
    const ok = parseEmbeddings('{"data":[{"index":1,"embedding":[2]},{"index":0,"embedding":[1]}]}', 2);
    expect(ok.vectors.map((v) => v[0])).toEqual([1, 2]);
  });

  it('embeds a chunk with where it sits', () => {
    expect(embeddingInput({ title: 'Returns', headings: 'Returns › Refunds', body: 'Body.' })).toBe('Returns › Refunds\n\nBody.');
    expect(embeddingInput({ title: 'Guide', headings: 'Setup', body: 'Body.' })).toBe('Guide › Setup\n\nBody.');
    expect(embeddingInput({ title: 'Note', headings: '', body: 'Body.' })).toBe('Note\n\nBody.');
  });
});

describe('configuration', () => {
  it('is off unless EMBEDDINGS_MODEL is set; keys go only where they belong', () => {
    expect(loadConfig({}).embeddings).toBeNull();
    expect(() => loadConfig({ EMBEDDINGS_BASE_URL: 'http://127.0.0.1:11434' })).toThrow(/EMBEDDINGS_MODEL/);
    // Ollama: no path means /v1; OPENAI_API_KEY is not sent there.
    expect(
      loadConfig({ EMBEDDINGS_MODEL: 'nomic-embed-text', EMBEDDINGS_BASE_URL: 'http://127.0.0.1:11434', OPENAI_API_KEY: 'sk-x' })
        .embeddings,
    ).toEqual({
      baseUrl: 'http://127.0.0.1:11434/v1',
      model: 'nomic-embed-text',
      apiKey: undefined,
      dimensions: undefined,
      vectorSearch: 'auto',
    });
    // OpenAI by default, with the server's OpenAI key.
    expect(
      loadConfig({ EMBEDDINGS_MODEL: 'text-embedding-3-small', OPENAI_API_KEY: 'sk-x', EMBEDDINGS_DIMENSIONS: '512' }).embeddings,
    ).toEqual({
      baseUrl: 'https://api.openai.com/v1',
      model: 'text-embedding-3-small',
      apiKey: 'sk-x',
      dimensions: 512,
      vectorSearch: 'auto',
    });
    // The same gateway as OPENAI_BASE_URL gets its key; an explicit key always wins.
    expect(
      loadConfig({ EMBEDDINGS_MODEL: 'm', OPENAI_BASE_URL: 'https://gw.example.com/v1', OPENAI_API_KEY: 'sk-gw' }).embeddings?.apiKey,
    ).toBe('sk-gw');
    expect(
      loadConfig({
        EMBEDDINGS_MODEL: 'm',
        EMBEDDINGS_BASE_URL: 'https://gw.example.com/v1',
        EMBEDDINGS_API_KEY: 'e-key',
        OPENAI_API_KEY: 'sk',
      }).embeddings?.apiKey,
    ).toBe('e-key');
    expect(() => loadConfig({ EMBEDDINGS_MODEL: 'text-embedding-3-small' })).toThrow(ConfigError);
    expect(() => loadConfig({ EMBEDDINGS_MODEL: 'm', EMBEDDINGS_DIMENSIONS: 'lots' })).toThrow(/EMBEDDINGS_DIMENSIONS/);
  });

  it('EMBEDDINGS_VECTOR_SEARCH: auto (pgvector where available) by default, memory forces the in-memory copy, nothing else', () => {
    const base = { EMBEDDINGS_MODEL: 'm', EMBEDDINGS_BASE_URL: 'http://127.0.0.1:11434' };
    expect(loadConfig(base).embeddings?.vectorSearch).toBe('auto');
    expect(loadConfig({ ...base, EMBEDDINGS_VECTOR_SEARCH: 'memory' }).embeddings?.vectorSearch).toBe('memory');
    expect(loadConfig({ ...base, EMBEDDINGS_VECTOR_SEARCH: '' }).embeddings?.vectorSearch).toBe('auto');
    expect(() => loadConfig({ ...base, EMBEDDINGS_VECTOR_SEARCH: 'pgvector' })).toThrow(/EMBEDDINGS_VECTOR_SEARCH/);
  });
});
