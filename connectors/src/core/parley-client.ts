import { ParleyError } from './parley-error.js';
import type { ChatAnswer, ChatRequest, ChatSource, FeedbackRequest } from './parley-types.js';
import { backoffDelay } from './backoff.js';
import { isRetryableStatus, parseRetryAfter } from './retry-policy.js';

export interface ParleyClientOptions {
  /** e.g. `http://localhost:3000`; a trailing slash is tolerated. */
  baseUrl: string;
  apiKey: string;
  assistantId: string;
  fetch?: typeof fetch;
  /** Per attempt. Chat answers from a remote model can take a while; Discord and Slack allow 15 min / 30 min after a defer. */
  timeoutMs?: number;
  /** Total attempts including the first; bounded so a broken server cannot hold a reply forever. */
  maxAttempts?: number;
  /** The ceiling of the first retry's wait (core/backoff.ts: full jitter, doubled per retry). */
  baseDelayMs?: number;
  /**
   * The longest single wait we accept. A Retry-After beyond it is not slept through: the user
   * gets "busy, try again" now instead of silence for minutes.
   */
  maxRetryDelayMs?: number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  now?: () => number;
}

export interface ParleyClient {
  chat(request: ChatRequest): Promise<ChatAnswer>;
  /** `GET /v1/assistants/:id` → the record's `data` (bot settings live in it). */
  getAssistant(): Promise<Record<string, unknown>>;
  /** `GET /v1/assistants/:id/texts` → `data`: the bot's own texts in the assistant's language. */
  getTexts(): Promise<Record<string, unknown>>;
  sendFeedback(sessionId: string, feedback: FeedbackRequest): Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Node's fetch reports refused/reset connections as TypeError("fetch failed") with a cause code. */
const CONNECT_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE', 'UND_ERR_SOCKET']);

export function createParleyClient(options: ParleyClientOptions): ParleyClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const maxAttempts = Math.max(1, options.maxAttempts ?? 3);
  const maxRetryDelayMs = options.maxRetryDelayMs ?? 10_000;
  const sleep = options.sleep ?? defaultSleep;
  const now = options.now ?? Date.now;
  const backoff = { baseMs: options.baseDelayMs ?? 500, maxMs: maxRetryDelayMs };
  const random = options.random ?? Math.random;
  const assistantPath = encodeURIComponent(options.assistantId);

  async function request(method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
    let lastError: ParleyError | undefined;
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      const outcome = await attemptOnce(method, path, body);
      if (outcome.ok) return outcome.body;
      lastError = outcome.error;
      if (!outcome.retryable || attempt === maxAttempts) break;
      const delay = outcome.retryAfterMs ?? backoffDelay(attempt - 1, backoff, random); // attempt 1 failed: retry 0
      if (delay > maxRetryDelayMs) break;
      await sleep(delay);
    }
    throw lastError ?? new ParleyError('Parley request failed', 0, 'UNREACHABLE');
  }

  type Outcome = { ok: true; body: unknown } | { ok: false; error: ParleyError; retryable: boolean; retryAfterMs?: number };

  async function attemptOnce(method: string, path: string, body: unknown): Promise<Outcome> {
    let response: Response;
    try {
      response = await doFetch(`${baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${options.apiKey}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
      const code = (err as { cause?: { code?: string } }).cause?.code;
      // A refused connection never reached the server, so retrying cannot duplicate a chat
      // message. A timeout may have: the server could still be answering, so we do not resend.
      const retryable = !timedOut && code !== undefined && CONNECT_ERRORS.has(code);
      const message = timedOut ? `Parley did not answer within ${timeoutMs} ms` : `Parley unreachable: ${code ?? (err as Error).message}`;
      return { ok: false, error: new ParleyError(message, 0, timedOut ? 'TIMEOUT' : 'UNREACHABLE'), retryable };
    }

    const text = await response.text().catch(() => '');
    const parsed = parseJson(text);
    if (response.ok) return { ok: true, body: parsed };

    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), now());
    const { code, message } = readErrorBody(parsed, response.status);
    const error = new ParleyError(message, response.status, code, retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000));
    return {
      ok: false,
      error,
      retryable: isRetryableStatus(response.status),
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    };
  }

  return {
    async chat(chatRequest) {
      const body = await request('POST', `/v1/integrations/${assistantPath}/chat`, chatRequest);
      return readChatAnswer(body);
    },
    async getAssistant() {
      const body = await request('GET', `/v1/assistants/${assistantPath}`);
      const data = isRecord(body) ? body.data : undefined;
      if (!isRecord(data)) throw new ParleyError('Unexpected assistant response from Parley', 200, 'BAD_RESPONSE');
      return data;
    },
    async getTexts() {
      const body = await request('GET', `/v1/assistants/${assistantPath}/texts`);
      const data = isRecord(body) ? body.data : undefined;
      if (!isRecord(data)) throw new ParleyError('Unexpected texts response from Parley', 200, 'BAD_RESPONSE');
      return data;
    },
    async sendFeedback(sessionId, feedback) {
      await request('POST', `/v1/conversations/${encodeURIComponent(sessionId)}/feedback`, feedback);
    },
  };
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Both error forms (bare `{error}` on chat, enveloped `{status:"error", error}` elsewhere) carry `error.code`. */
function readErrorBody(body: unknown, status: number): { code: string; message: string } {
  const error = isRecord(body) && isRecord(body.error) ? body.error : undefined;
  const code = typeof error?.code === 'string' ? error.code : `HTTP_${status}`;
  const message = typeof error?.message === 'string' ? error.message : `Parley answered HTTP ${status}`;
  return { code, message };
}

/** Trust but verify: a malformed 200 becomes a ParleyError, not an undefined.length crash later. */
function readChatAnswer(body: unknown): ChatAnswer {
  if (!isRecord(body) || typeof body.response !== 'string' || typeof body.sessionId !== 'string') {
    throw new ParleyError('Unexpected chat response from Parley', 200, 'BAD_RESPONSE');
  }
  const sources: ChatSource[] = Array.isArray(body.sources)
    ? body.sources.filter(isRecord).map((s) => ({
        title: typeof s.title === 'string' ? s.title : '',
        url: typeof s.url === 'string' ? s.url : '',
      }))
    : [];
  return {
    response: body.response,
    sessionId: body.sessionId,
    confidence: typeof body.confidence === 'number' ? body.confidence : 0,
    sources,
    ...(typeof body.messageId === 'string' ? { messageId: body.messageId } : {}),
  };
}
