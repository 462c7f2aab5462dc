import { sameBaseUrl } from '../../answer/providers/http-retry.js';
import { OPENAI_DEFAULT_BASE_URL } from '../../answer/providers/openai.js';
import type { EmbeddingsTuning } from './index.js';

/** An OpenAI-compatible embeddings endpoint (`POST {baseUrl}/embeddings`). */
export interface EmbeddingsConfig {
  /** Like OPENAI_BASE_URL: includes the version path (`http://localhost:11434/v1`). */
  baseUrl: string;
  model: string;
  /** Sent as `Authorization: Bearer`; none for a local server. */
  apiKey: string | undefined;
  /** Asked of models that can shorten their vectors (OpenAI text-embedding-3-*); else the model's own. */
  dimensions: number | undefined;
  /**
   * PostgreSQL: how questions search the vectors. `auto` (default): pgvector when the database has
   * (or can create) the extension, else an in-memory copy per instance; `memory`: the copy always.
   */
  vectorSearch?: 'auto' | 'memory' | undefined;
  /** Batch size, timeouts, backoff: defaults in index.ts; not from the environment (tests shorten waits). */
  tuning?: Partial<EmbeddingsTuning> | undefined;
}

export interface EmbeddingsEnv {
  EMBEDDINGS_BASE_URL?: string | undefined;
  EMBEDDINGS_MODEL?: string | undefined;
  EMBEDDINGS_API_KEY?: string | undefined;
  EMBEDDINGS_DIMENSIONS?: number | undefined;
  EMBEDDINGS_VECTOR_SEARCH?: 'auto' | 'memory' | undefined;
  OPENAI_API_KEY?: string | undefined;
  OPENAI_BASE_URL?: string | undefined;
}

/** A base URL without a path gets `/v1` (`http://localhost:11434` → `http://localhost:11434/v1`). */
export function normalizeBaseUrl(base: string): string {
  const url = new URL(base);
  if (url.pathname === '/' || url.pathname === '') url.pathname = '/v1';
  return url.toString().replace(/\/+$/, '');
}

/**
 * Dense retrieval is on when EMBEDDINGS_MODEL is set. The endpoint defaults to the server's
 * OpenAI-compatible base (OPENAI_BASE_URL, else api.openai.com). OPENAI_API_KEY is used only
 * when the embeddings go to that same base URL, the host it is already meant for; any other
 * host gets EMBEDDINGS_API_KEY or nothing. Returns a problem message for a setting that cannot work.
 */
export function resolveEmbeddingsConfig(env: EmbeddingsEnv): { config: EmbeddingsConfig | null } | { problem: string } {
  if (!env.EMBEDDINGS_MODEL) {
    if (env.EMBEDDINGS_BASE_URL) return { problem: 'EMBEDDINGS_BASE_URL is set but EMBEDDINGS_MODEL is not (name the embedding model to turn dense retrieval on)' };
    return { config: null };
  }
  const openAiBase = env.OPENAI_BASE_URL ?? OPENAI_DEFAULT_BASE_URL;
  const baseUrl = normalizeBaseUrl(env.EMBEDDINGS_BASE_URL ?? openAiBase);
  const apiKey = env.EMBEDDINGS_API_KEY ?? (env.OPENAI_API_KEY && sameBaseUrl(baseUrl, normalizeBaseUrl(openAiBase)) ? env.OPENAI_API_KEY : undefined);
  if (!apiKey && new URL(baseUrl).hostname === 'api.openai.com') {
    return { problem: `EMBEDDINGS_MODEL uses ${baseUrl}, which needs a key: set EMBEDDINGS_API_KEY (or OPENAI_API_KEY), or EMBEDDINGS_BASE_URL for a local server` };
  }
  return { config: { baseUrl, model: env.EMBEDDINGS_MODEL, apiKey, dimensions: env.EMBEDDINGS_DIMENSIONS, vectorSearch: env.EMBEDDINGS_VECTOR_SEARCH ?? 'auto' } };
}
