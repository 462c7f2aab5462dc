/**
 * The OpenAI embeddings protocol (`POST {baseUrl}/embeddings`), spoken by OpenAI, Ollama
 * (`/v1/embeddings`), vLLM, LM Studio, llama.cpp, LiteLLM, TEI… Request `{model, input:
 * string[], encoding_format: "float", dimensions?}`, answer `{data: [{index, embedding}], model,
 * usage}`. Same transport and failure policy as the chat providers (net/provider-http.ts): the
 * outbound client's keep-alive pool, an idle timeout, retries with full-jitter backoff honouring
 * Retry-After. The base URL is the operator's (EMBEDDINGS_BASE_URL): no address guard.
 */
import { createHttpClient } from '../../net/client.js';
import {
  DEFAULT_RETRY,
  ProviderError,
  asProviderError,
  cancelledError,
  errorDetail,
  joinUrl,
  providerRequest,
  statusError,
} from '../../net/provider-http.js';
import { withRetries, type RetryPolicy } from '../../net/retry.js';
import type { EmbeddingsConfig } from '../../config.js';

export interface EmbedOptions {
  /** Longest silence (connecting, the head, the body) before the attempt fails. */
  timeoutMs: number;
  retry?: RetryPolicy | undefined;
  signal?: AbortSignal | undefined;
}

export interface EmbeddingResult {
  /** One vector per input, in input order. */
  vectors: Float32Array[];
  /** What the server says it used (informational). */
  model: string | null;
  promptTokens: number | null;
}

interface WireBody {
  data?: { index?: unknown; embedding?: unknown }[];
  model?: unknown;
  usage?: { prompt_tokens?: unknown } | null;
}

/** A client of one embeddings endpoint and model. */
export interface EmbeddingClient {
  /** The model asked for in every request. */
  readonly model: string;
  /** Embeds `input` (one request; callers batch). Throws ProviderError. */
  embed(input: readonly string[], opts: EmbedOptions): Promise<EmbeddingResult>;
}

export function createEmbeddingClient(config: Pick<EmbeddingsConfig, 'baseUrl' | 'model' | 'apiKey' | 'dimensions'>): EmbeddingClient {
  const url = joinUrl(config.baseUrl, 'embeddings');
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (config.apiKey) headers.authorization = `Bearer ${config.apiKey}`;
  const http = createHttpClient();

  async function once(input: readonly string[], opts: EmbedOptions): Promise<EmbeddingResult> {
    const body: Record<string, unknown> = { model: config.model, input, encoding_format: 'float' };
    if (config.dimensions) body.dimensions = config.dimensions;
    const res = await providerRequest(
      http,
      url,
      { headers, body: JSON.stringify(body) },
      { timeoutMs: opts.timeoutMs, signal: opts.signal },
    );
    const text = await res.text();
    if (res.status < 200 || res.status >= 300) throw statusError(res.status, res.header, errorDetail(text));
    return parseEmbeddings(text, input.length);
  }

  return {
    model: config.model,
    async embed(input: readonly string[], opts: EmbedOptions): Promise<EmbeddingResult> {
      if (!input.length) return { vectors: [], model: null, promptTokens: null };
      const attempts = withRetries<EmbeddingResult, ProviderError>(
        async function* attempt() {
          yield await once(input, opts);
        },
        {
          policy: opts.retry ?? DEFAULT_RETRY,
          signal: opts.signal,
          isProgress: () => false,
          toError: asProviderError,
          cancelled: cancelledError,
        },
      );
      for await (const result of attempts) return result;
      throw new ProviderError('protocol', 'The embeddings request produced no answer');
    },
  };
}

/** Validates an embeddings answer: one finite vector per input, all of one dimension. */
export function parseEmbeddings(text: string, expected: number): EmbeddingResult {
  let body: WireBody;
  try {
    body = JSON.parse(text) as WireBody;
  } catch {
    throw new ProviderError('protocol', 'The embeddings answer is not JSON');
  }
  if (!Array.isArray(body.data) || body.data.length !== expected) {
    throw new ProviderError(
      'protocol',
      `The embeddings answer has ${Array.isArray(body.data) ? body.data.length : 'no'} vectors for ${expected} inputs`,
    );
  }
  const vectors: (Float32Array | undefined)[] = new Array(expected);
  let dim: number | null = null;
  body.data.forEach((item, position) => {
    const index = typeof item.index === 'number' ? item.index : position;
    const e = item.embedding;
    if (!Number.isInteger(index) || index < 0 || index >= expected || vectors[index])
      throw new ProviderError('protocol', `The embeddings answer has a bad index ${String(item.index)}`);
    if (!Array.isArray(e) || !e.length || !e.every((x) => typeof x === 'number' && Number.isFinite(x))) {
      throw new ProviderError(
        'protocol',
        'The embeddings answer holds a vector that is not a list of numbers (was encoding_format "float" ignored?)',
      );
    }
    if (dim !== null && e.length !== dim)
      throw new ProviderError('protocol', `The embeddings answer mixes dimensions ${dim} and ${e.length}`);
    dim = e.length;
    vectors[index] = Float32Array.from(e as number[]);
  });
  const tokens = body.usage?.prompt_tokens;
  return {
    vectors: vectors as Float32Array[],
    model: typeof body.model === 'string' ? body.model : null,
    promptTokens: typeof tokens === 'number' ? tokens : null,
  };
}
