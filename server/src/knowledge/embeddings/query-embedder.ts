import { ProviderError } from '../../net/provider-http.js';
import type { Clock } from '../../lib/clock.js';
import type { Logger } from '../../lib/logger.js';
import type { EmbeddingClient } from './client.js';

export interface QueryEmbedderOptions {
  client: EmbeddingClient;
  logger: Logger;
  clock: Clock;
  /** Longest wait for a question's vector; then the answer uses BM25 alone. */
  timeoutMs: number;
  /** After a failure, questions skip the endpoint this long (no timeout paid per chat while it is down). */
  cooldownMs: number;
  /** Recent questions' vectors kept (least recently used dropped). */
  cacheSize: number;
}

/** Vectors for questions on the request path (see createQueryEmbedder). */
export interface QueryEmbedder {
  /** The question's vector, or null (endpoint down or cooling down). Starts the request at once. */
  embed(query: string): Promise<Float32Array | null>;
  /** Forget cached vectors (the model changed). */
  clear(): void;
  /** Questions whose vector is cached now. */
  readonly cached: number;
}

/**
 * Vectors for questions, on the request path: cached (LRU; a widget's suggested questions and
 * retries repeat), shared between concurrent identical questions, no retries, a short timeout.
 * Resolves null instead of failing; one warning per outage, one note when it is over.
 */
export function createQueryEmbedder(opts: QueryEmbedderOptions): QueryEmbedder {
  const cache = new Map<string, Float32Array>();
  const inFlight = new Map<string, Promise<Float32Array | null>>();
  let downUntil = 0;
  let outage = false;

  const keyOf = (q: string): string => q.trim().replace(/\s+/g, ' ');

  function remember(key: string, v: Float32Array): void {
    cache.delete(key);
    cache.set(key, v);
    if (cache.size > opts.cacheSize) cache.delete(cache.keys().next().value as string);
  }

  async function fetchVector(key: string): Promise<Float32Array | null> {
    try {
      const { vectors } = await opts.client.embed([key], {
        timeoutMs: opts.timeoutMs,
        retry: { retries: 0, baseDelayMs: 0, maxDelayMs: 0 },
      });
      const v = vectors[0] ?? null;
      if (v) remember(key, v);
      if (outage) {
        outage = false;
        opts.logger.info('embeddings endpoint answers again: hybrid retrieval resumed', { model: opts.client.model });
      }
      return v;
    } catch (err) {
      downUntil = opts.clock.now() + opts.cooldownMs;
      if (!outage) {
        outage = true;
        const e = err instanceof ProviderError ? err : null;
        opts.logger.warn('embeddings endpoint failed at query time: answering from BM25 alone', {
          model: opts.client.model,
          code: e?.code ?? 'error',
          status: e?.status ?? null,
          error: err instanceof Error ? err.message : String(err),
          retryInMs: opts.cooldownMs,
        });
      }
      return null;
    } finally {
      inFlight.delete(key);
    }
  }

  return {
    embed(query: string): Promise<Float32Array | null> {
      const key = keyOf(query);
      const hit = cache.get(key);
      if (hit) {
        remember(key, hit);
        return Promise.resolve(hit);
      }
      const pending = inFlight.get(key);
      if (pending) return pending;
      if (opts.clock.now() < downUntil) return Promise.resolve(null);
      const p = fetchVector(key);
      inFlight.set(key, p);
      return p;
    },
    clear(): void {
      cache.clear();
    },
    get cached(): number {
      return cache.size;
    },
  };
}
