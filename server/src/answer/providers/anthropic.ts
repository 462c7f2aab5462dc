/**
 * The Anthropic Messages API (`POST {baseUrl}/v1/messages`, `x-api-key`,
 * `anthropic-version: 2023-06-01`), JSON or SSE (`message_start`, `content_block_start`,
 * `content_block_delta`/`text_delta`, `content_block_stop`, `message_delta` with usage and
 * stop_reason, `message_stop`, `ping`, `error`). No SDK, for the same reasons as the OpenAI
 * provider; the same key rule too: ANTHROPIC_API_KEY goes only to the server's own
 * base URL (ANTHROPIC_BASE_URL, else api.anthropic.com).
 */
import { sameBaseUrl } from '../../lib/base-url.js';
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
import { maxTokensFor } from './openai.js';
import { parseSse } from './sse.js';
import type { AnswerEvent, AnswerProvider, AnswerRequest, AnswerUsage } from './types.js';

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';
export const ANTHROPIC_DEFAULT_MODEL = 'claude-haiku-4-5';
export const ANTHROPIC_VERSION = '2023-06-01';

export interface AnthropicOptions {
  apiKey?: string | undefined;
  baseUrl?: string | undefined;
  timeoutMs?: number | undefined;
  retry?: RetryPolicy | undefined;
  onRetry?: (err: ProviderError, waitMs: number) => void;
  /** Where model.baseUrl may point (model-url-guard.ts); default: only public addresses, the server's base URL exempt. */
  urlGuard?: ModelUrlGuard | undefined;
}

interface RawUsage {
  input_tokens?: number;
  output_tokens?: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}
interface MessageBody {
  content?: { type: string; text?: string }[];
  stop_reason?: string | null;
  usage?: RawUsage;
}
interface StreamEvent {
  type?: string;
  message?: MessageBody;
  index?: number;
  content_block?: { type: string; text?: string };
  delta?: { type?: string; text?: string; stop_reason?: string | null };
  usage?: RawUsage;
  error?: { type?: string; message?: string };
}

/** Prompt tokens include cached ones: they were part of the prompt all the same. */
const promptTokens = (u: RawUsage): number =>
  (u.input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0);

function finishOf(reason: string | null | undefined, hasText: boolean): 'stop' | 'length' | 'no_answer' {
  if (!hasText || reason === 'refusal') return 'no_answer';
  return reason === 'max_tokens' ? 'length' : 'stop';
}

/** An `error` event in the stream, typed like the HTTP errors (overloaded_error = 529). */
function streamError(error: StreamEvent['error']): ProviderError {
  const type = error?.type ?? 'api_error';
  const message = `Stream error ${type}: ${error?.message ?? ''}`.trim();
  if (type === 'rate_limit_error') return new ProviderError('rate_limited', message, { retryable: true });
  if (type === 'overloaded_error' || type === 'api_error' || type === 'timeout_error')
    return new ProviderError('upstream', message, { retryable: true });
  if (type === 'authentication_error' || type === 'permission_error') return new ProviderError('auth', message);
  return new ProviderError('bad_request', message);
}

export function createAnthropicProvider(opts: AnthropicOptions = {}): AnswerProvider {
  const serverBase = opts.baseUrl ?? ANTHROPIC_DEFAULT_BASE_URL;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const policy = opts.retry ?? DEFAULT_RETRY;
  const urlGuard = opts.urlGuard ?? createModelUrlGuard({ allowPrivate: false, allowlist: [], trusted: [serverBase] });
  const clientFor = createModelClients(urlGuard, timeoutMs);

  function target(model: AnswerRequest['model']): { base: string; key: string | null } {
    const base = model.baseUrl ?? serverBase;
    return { base, key: opts.apiKey && sameBaseUrl(base, serverBase) ? opts.apiKey : null };
  }
  const isAnthropicCom = (base: string) => {
    try {
      return new URL(base).hostname === 'api.anthropic.com';
    } catch {
      return false;
    }
  };

  function check(model: AnswerRequest['model']): string | null {
    const { base, key } = target(model);
    if (key || !isAnthropicCom(base)) return null;
    return sameBaseUrl(base, serverBase)
      ? 'The anthropic provider needs an API key: set ANTHROPIC_API_KEY on the server (or ANTHROPIC_BASE_URL for a gateway that needs none).'
      : `model.baseUrl is api.anthropic.com, but the server's ANTHROPIC_API_KEY is only sent to its own base URL (${serverBase}): remove model.baseUrl to use it.`;
  }

  function requestBody(request: AnswerRequest, stream: boolean): Record<string, unknown> {
    const prompt = buildPrompt(request);
    const body: Record<string, unknown> = {
      model: request.model.name ?? ANTHROPIC_DEFAULT_MODEL,
      max_tokens: maxTokensFor(request.maxResponseLength),
      system: prompt.system,
      messages: prompt.messages,
    };
    // Anthropic's temperature range is 0..1; the assistant's is 0..2.
    if (request.model.temperature !== undefined) body.temperature = Math.min(1, request.model.temperature);
    if (stream) body.stream = true;
    return body;
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
        let parsed: MessageBody;
        try {
          parsed = JSON.parse(await http.text()) as MessageBody;
        } catch {
          throw new ProviderError('protocol', 'The provider answered with something other than JSON');
        }
        const text = (parsed.content ?? [])
          .filter((b) => b.type === 'text')
          .map((b) => b.text ?? '')
          .join('');
        if (text) yield { type: 'delta', text };
        const u = parsed.usage;
        yield {
          type: 'done',
          finishReason: finishOf(parsed.stop_reason, Boolean(text)),
          usage: u ? { promptTokens: promptTokens(u), completionTokens: u.output_tokens ?? 0 } : null,
          usedPassageIds: null,
          coverage: null,
        };
        return;
      }
      let usage: AnswerUsage | null = null;
      let stopReason: string | null = null;
      let hasText = false;
      const textBlocks = new Set<number>();
      for await (const sse of parseSse(http.chunks())) {
        let event: StreamEvent;
        try {
          event = JSON.parse(sse.data) as StreamEvent;
        } catch {
          throw new ProviderError('protocol', 'The provider sent a stream event that is not JSON');
        }
        switch (event.type ?? sse.event) {
          case 'message_start': {
            const u = event.message?.usage;
            if (u) usage = { promptTokens: promptTokens(u), completionTokens: u.output_tokens ?? 0 };
            break;
          }
          case 'content_block_start':
            // Only text blocks are the answer; thinking and tool blocks are not shown.
            if (event.content_block?.type === 'text') {
              textBlocks.add(event.index ?? 0);
              if (event.content_block.text) {
                hasText = true;
                yield { type: 'delta', text: event.content_block.text };
              }
            }
            break;
          case 'content_block_delta':
            if (event.delta?.type === 'text_delta' && event.delta.text && textBlocks.has(event.index ?? 0)) {
              hasText = true;
              yield { type: 'delta', text: event.delta.text };
            }
            break;
          case 'message_delta': {
            if (event.delta?.stop_reason) stopReason = event.delta.stop_reason;
            const u = event.usage; // cumulative counts
            if (u) {
              const before = usage as AnswerUsage | null;
              usage = {
                promptTokens: u.input_tokens !== undefined ? promptTokens(u) : (before?.promptTokens ?? 0),
                completionTokens: u.output_tokens ?? before?.completionTokens ?? 0,
              };
            }
            break;
          }
          case 'message_stop':
            http.complete();
            yield { type: 'done', finishReason: finishOf(stopReason, hasText), usage, usedPassageIds: null, coverage: null };
            return;
          case 'error':
            throw streamError(event.error);
          default:
            break; // ping, content_block_stop, and event types added later
        }
      }
      throw new ProviderError('network', 'The provider closed the stream before message_stop', { retryable: true });
    } finally {
      http.close();
    }
  }

  return {
    name: 'anthropic',
    defaultModel: ANTHROPIC_DEFAULT_MODEL,
    check,
    baseUrlProblem: (baseUrl) => urlGuard.problem(baseUrl),
    warnings(model) {
      const out: string[] = [];
      if (!model.name) out.push(`model.name is not set: the anthropic provider uses ${ANTHROPIC_DEFAULT_MODEL}.`);
      if (model.temperature !== undefined && model.temperature > 1)
        out.push(`model.temperature ${model.temperature} is above Anthropic's maximum of 1: 1 is used.`);
      if (model.baseUrl && opts.apiKey && !sameBaseUrl(model.baseUrl, serverBase))
        out.push(`model.baseUrl differs from the server's ANTHROPIC_BASE_URL: requests to it carry no API key.`);
      return out;
    },
    answer(request, { signal, stream = false }) {
      const problem = check(request.model);
      if (problem) throw new ProviderError('auth', problem);
      const { base, key } = target(request.model);
      const url = joinUrl(base, 'v1/messages');
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        accept: stream ? 'text/event-stream' : 'application/json',
        'anthropic-version': ANTHROPIC_VERSION,
      };
      if (key) headers['x-api-key'] = key;
      const body = JSON.stringify(requestBody(request, stream));
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
