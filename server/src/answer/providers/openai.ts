/**
 * The OpenAI Chat Completions protocol (`POST {baseUrl}/chat/completions`), spoken by OpenAI
 * and by most self-hosted and gateway servers: Ollama, vLLM, LM Studio, llama.cpp, Groq,
 * OpenRouter, LiteLLM, Azure OpenAI's v1 endpoint… No SDK: the protocol is two request shapes
 * and two response shapes, and owning them keeps timeouts, retries and
 * cancellation under one policy.
 *
 * Keys. The server's OPENAI_API_KEY goes only to the server's own base URL (OPENAI_BASE_URL,
 * else api.openai.com). An assistant whose `model.baseUrl` points elsewhere (a local Ollama)
 * is called without it, so no assistant can route the operator's key to a host of its choice.
 */
import { OPENAI_DEFAULT_BASE_URL, sameBaseUrl } from '../../lib/base-url.js';
import { buildPrompt } from '../prompt.js';
import {
  DEFAULT_RETRY,
  DEFAULT_TIMEOUT_MS,
  ProviderError,
  asProviderError,
  cancelledError,
  errorDetail,
  joinUrl,
  providerRequest,
  statusError,
} from '../../net/provider-http.js';
import { withRetries, type RetryPolicy } from '../../net/retry.js';
import { MODEL_PRIVATE_HINT, createModelClients, createModelUrlGuard, type ModelUrlGuard } from './model-url-guard.js';
import { parseSse } from './sse.js';
import type { AnswerEvent, AnswerProvider, AnswerRequest, AnswerUsage } from './types.js';

export { OPENAI_DEFAULT_BASE_URL };
export const OPENAI_DEFAULT_MODEL = 'gpt-4o-mini';

export interface OpenAiOptions {
  apiKey?: string | undefined;
  /** The server's base URL (OPENAI_BASE_URL); the key is sent there only. */
  baseUrl?: string | undefined;
  timeoutMs?: number | undefined;
  retry?: RetryPolicy | undefined;
  onRetry?: (err: ProviderError, waitMs: number) => void;
  /** Where model.baseUrl may point (model-url-guard.ts); default: only public addresses, the server's base URL exempt. */
  urlGuard?: ModelUrlGuard | undefined;
}

/** Tokens to allow for `maxResponseLength` characters: generous, the character cap cuts first. */
export function maxTokensFor(maxResponseLength: number): number {
  return Math.ceil(maxResponseLength / 2) + 64;
}

interface ChatChoice {
  delta?: { content?: string | null; refusal?: string | null } | null;
  message?: { content?: string | null; refusal?: string | null } | null;
  finish_reason?: string | null;
}
interface ChatBody {
  choices?: ChatChoice[] | null;
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
  error?: { message?: string; type?: string; code?: unknown };
}

function usageOf(u: ChatBody['usage']): AnswerUsage | null {
  return u && typeof u.prompt_tokens === 'number' ? { promptTokens: u.prompt_tokens, completionTokens: u.completion_tokens ?? 0 } : null;
}

function finishOf(reason: string | null | undefined, hasText: boolean): 'stop' | 'length' | 'no_answer' {
  if (!hasText) return 'no_answer';
  // content_filter stops the text mid-way: treat it as cut short.
  return reason === 'length' || reason === 'content_filter' ? 'length' : 'stop';
}

const isOpenAiCom = (base: string): boolean => {
  try {
    return new URL(base).hostname === 'api.openai.com';
  } catch {
    return false;
  }
};

/** The JSON body of a Chat Completions request. */
export function openAiRequestBody(request: AnswerRequest, stream: boolean, base: string): Record<string, unknown> {
  const prompt = buildPrompt(request);
  const body: Record<string, unknown> = {
    model: request.model.name ?? OPENAI_DEFAULT_MODEL,
    messages: [{ role: 'system', content: prompt.system }, ...prompt.messages],
  };
  // OpenAI's own API wants max_completion_tokens (reasoning models refuse max_tokens);
  // compatible servers know max_tokens.
  body[isOpenAiCom(base) ? 'max_completion_tokens' : 'max_tokens'] = maxTokensFor(request.maxResponseLength);
  if (request.model.temperature !== undefined) body.temperature = request.model.temperature;
  if (stream) {
    body.stream = true;
    body.stream_options = { include_usage: true };
  }
  return body;
}

export function createOpenAiProvider(opts: OpenAiOptions = {}): AnswerProvider {
  const serverBase = opts.baseUrl ?? OPENAI_DEFAULT_BASE_URL;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const policy = opts.retry ?? DEFAULT_RETRY;
  const urlGuard = opts.urlGuard ?? createModelUrlGuard({ allowPrivate: false, allowlist: [], trusted: [serverBase] });
  const clientFor = createModelClients(urlGuard, timeoutMs);

  function target(model: AnswerRequest['model']): { base: string; key: string | null } {
    const base = model.baseUrl ?? serverBase;
    return { base, key: opts.apiKey && sameBaseUrl(base, serverBase) ? opts.apiKey : null };
  }

  async function* attempt(
    url: string,
    headers: Record<string, string>,
    body: string,
    stream: boolean,
    signal: AbortSignal | undefined,
    base: string,
  ): AsyncIterable<AnswerEvent> {
    const http = await providerRequest(clientFor(base), url, { headers, body }, { timeoutMs, signal, blockedHint: MODEL_PRIVATE_HINT });
    try {
      if (http.status < 200 || http.status > 299) throw statusError(http.status, http.header, errorDetail(await http.text()));
      if (!stream) {
        const text = await http.text();
        let parsed: ChatBody;
        try {
          parsed = JSON.parse(text) as ChatBody;
        } catch {
          throw new ProviderError('protocol', 'The provider answered with something other than JSON');
        }
        const choice = parsed.choices?.[0];
        const content = choice?.message?.content ?? '';
        if (content) yield { type: 'delta', text: content };
        yield {
          type: 'done',
          finishReason: choice?.message?.refusal ? 'no_answer' : finishOf(choice?.finish_reason, Boolean(content)),
          usage: usageOf(parsed.usage),
          usedPassageIds: null,
          coverage: null,
        };
        return;
      }
      let usage: AnswerUsage | null = null;
      let finish: string | null = null;
      let hasText = false;
      let refused = false;
      for await (const event of parseSse(http.chunks())) {
        if (event.data === '[DONE]') {
          http.complete();
          yield {
            type: 'done',
            finishReason: refused ? 'no_answer' : finishOf(finish, hasText),
            usage,
            usedPassageIds: null,
            coverage: null,
          };
          return;
        }
        let chunk: ChatBody;
        try {
          chunk = JSON.parse(event.data) as ChatBody;
        } catch {
          throw new ProviderError('protocol', 'The provider sent a stream event that is not JSON');
        }
        if (chunk.error) throw new ProviderError('upstream', `Stream error: ${chunk.error.message ?? 'unknown'}`, { retryable: true });
        usage = usageOf(chunk.usage) ?? usage; // the last chunk (choices: [] or null) carries it
        for (const choice of chunk.choices ?? []) {
          const text = choice.delta?.content;
          if (text) {
            hasText = true;
            yield { type: 'delta', text };
          }
          if (choice.delta?.refusal) refused = true;
          if (choice.finish_reason) finish = choice.finish_reason;
        }
      }
      // The stream ended without [DONE]: the connection was cut.
      throw new ProviderError('network', 'The provider closed the stream before it finished', { retryable: true });
    } finally {
      http.close();
    }
  }

  function check(model: AnswerRequest['model']): string | null {
    const { base, key } = target(model);
    if (key || !isOpenAiCom(base)) return null;
    return sameBaseUrl(base, serverBase)
      ? 'The openai provider needs an API key: set OPENAI_API_KEY on the server, or point model.baseUrl (or OPENAI_BASE_URL) at a server that needs none, such as Ollama.'
      : `model.baseUrl is api.openai.com, but the server's OPENAI_API_KEY is only sent to its own base URL (${serverBase}): remove model.baseUrl to use it.`;
  }

  return {
    name: 'openai',
    defaultModel: OPENAI_DEFAULT_MODEL,
    check,
    baseUrlProblem: (baseUrl) => urlGuard.problem(baseUrl),
    warnings(model) {
      const out: string[] = [];
      if (!model.name) out.push(`model.name is not set: the openai provider uses ${OPENAI_DEFAULT_MODEL}.`);
      if (model.baseUrl && opts.apiKey && !sameBaseUrl(model.baseUrl, serverBase))
        out.push(`model.baseUrl differs from the server's OPENAI_BASE_URL: requests to it carry no API key.`);
      return out;
    },
    answer(request, { signal, stream = false }) {
      const problem = check(request.model);
      if (problem) throw new ProviderError('auth', problem);
      const { base, key } = target(request.model);
      const url = joinUrl(base, 'chat/completions');
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        accept: stream ? 'text/event-stream' : 'application/json',
      };
      if (key) {
        headers.authorization = `Bearer ${key}`;
        if (/\.azure\.com$/i.test(new URL(base).hostname)) headers['api-key'] = key;
      }
      const body = JSON.stringify(openAiRequestBody(request, stream, base));
      return withRetries(() => attempt(url, headers, body, stream, signal, base), {
        policy,
        signal,
        isProgress: (e) => e.type === 'delta',
        toError: asProviderError,
        cancelled: cancelledError,
        onRetry: opts.onRetry,
      });
    },
  };
}
