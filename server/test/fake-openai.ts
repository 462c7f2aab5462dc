/**
 * A local server speaking the OpenAI Chat Completions protocol as api.openai.com does:
 * `POST /v1/chat/completions` with `Authorization: Bearer`, JSON answers
 * (`chat.completion`) or, with `stream: true`, SSE lines `data: {chat.completion.chunk}`
 * ending in `data: [DONE]`, the usage chunk (`choices: []`) only with
 * `stream_options.include_usage`; errors as `{"error":{message,type,param,code}}`.
 */
import {
  countTokens,
  isText,
  paced,
  startFake,
  type Exchange,
  type FakeProvider,
  type Protocol,
  type RecordedRequest,
  type Reply,
} from './fake-llm.js';

export type { FakeProvider, Reply } from './fake-llm.js';

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'invalid_request_error',
  404: 'invalid_request_error',
  429: 'requests',
  500: 'server_error',
  503: 'server_error',
};

export function openAiError(message: string, type: string, code: string | null = null) {
  return { error: { message, type, param: null, code } };
}

function promptTokens(body: { messages?: { content?: unknown }[] }): number {
  return (body.messages ?? []).reduce((n, m) => n + countTokens(typeof m.content === 'string' ? m.content : ''), 0);
}

function protocol(apiKey: string | null): Protocol {
  let seq = 0;
  return {
    validate(r: RecordedRequest) {
      if (r.method !== 'POST' || r.path.split('?')[0] !== '/v1/chat/completions') {
        return { status: 404, body: openAiError(`Invalid URL (${r.method} ${r.path})`, 'invalid_request_error') };
      }
      const auth = r.headers.authorization;
      if (apiKey !== null && auth !== `Bearer ${apiKey}`) {
        return auth
          ? { status: 401, body: openAiError('Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key') }
          : {
              status: 401,
              body: openAiError(
                "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
                'invalid_request_error',
              ),
            };
      }
      const b = r.body as Record<string, unknown> | undefined;
      if (!b || typeof b !== 'object')
        return { status: 400, body: openAiError('We could not parse the JSON body of your request.', 'invalid_request_error') };
      if (typeof b.model !== 'string')
        return { status: 400, body: openAiError('you must provide a model parameter', 'invalid_request_error') };
      if (!Array.isArray(b.messages) || !b.messages.length)
        return { status: 400, body: openAiError("Invalid 'messages': empty array or not an array.", 'invalid_request_error') };
      for (const m of b.messages as { role?: unknown; content?: unknown }[]) {
        if (!['system', 'developer', 'user', 'assistant', 'tool'].includes(String(m.role)) || typeof m.content !== 'string') {
          return {
            status: 400,
            body: openAiError("Invalid 'messages': each message needs a role and a string content.", 'invalid_request_error'),
          };
        }
      }
      if (b.stream_options !== undefined && b.stream !== true) {
        return {
          status: 400,
          body: openAiError("The 'stream_options' parameter is only allowed when 'stream' is enabled.", 'invalid_request_error'),
        };
      }
      if (b.max_tokens !== undefined && b.max_completion_tokens !== undefined) {
        return { status: 400, body: openAiError('max_tokens and max_completion_tokens cannot both be set.', 'invalid_request_error') };
      }
      if (b.temperature !== undefined && (typeof b.temperature !== 'number' || b.temperature < 0 || b.temperature > 2)) {
        return { status: 400, body: openAiError("Invalid 'temperature': must be between 0 and 2.", 'invalid_request_error') };
      }
      return null;
    },

    async respond(ex: Exchange, reply: Reply) {
      const { res, record } = ex;
      const body = record.body as { model: string; stream?: boolean; stream_options?: { include_usage?: boolean } };
      const id = `chatcmpl-fake${++seq}`;
      const created = Math.floor(Date.now() / 1000);
      if (reply.kind === 'error') {
        res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
        res.end(
          JSON.stringify(
            openAiError(
              reply.message ?? `Error ${reply.status}`,
              reply.type ?? ERROR_TYPES[reply.status] ?? 'server_error',
              reply.status === 429 ? 'rate_limit_exceeded' : null,
            ),
          ),
        );
        return;
      }
      const chunks = reply.chunks ?? [];
      const text = chunks.join('');
      const usage = {
        prompt_tokens: isText(reply) && reply.usage ? reply.usage.prompt : promptTokens(record.body),
        completion_tokens: isText(reply) && reply.usage ? reply.usage.completion : chunks.length,
        total_tokens: 0,
      };
      usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
      const finish = isText(reply) ? (reply.finish ?? 'stop') : 'stop';

      if (!body.stream) {
        if (reply.kind === 'hang') return; // never answers
        if (reply.kind === 'drop') {
          res.socket?.destroy();
          return;
        }
        if (isText(reply) && reply.firstDelayMs && !(await ex.wait(reply.firstDelayMs))) return;
        res.writeHead(200, { 'content-type': 'application/json', ...(isText(reply) && reply.headers) });
        ex.writeText(
          JSON.stringify({
            id,
            object: 'chat.completion',
            created,
            model: body.model,
            system_fingerprint: 'fp_fake',
            choices: [{ index: 0, message: { role: 'assistant', content: text, refusal: null }, logprobs: null, finish_reason: finish }],
            usage,
          }),
        );
        res.end();
        return;
      }

      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
        ...(isText(reply) && reply.headers),
      });
      const includeUsage = body.stream_options?.include_usage === true;
      const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model, system_fingerprint: 'fp_fake', choices, ...(includeUsage && { usage: null }), ...extra })}\n\n`;
      res.write(chunk([{ index: 0, delta: { role: 'assistant', content: '', refusal: null }, logprobs: null, finish_reason: null }]));
      const alive = await paced(ex, { ...reply, chunks }, (t) =>
        ex.writeText(chunk([{ index: 0, delta: { content: t }, logprobs: null, finish_reason: null }])),
      );
      if (!alive) return;
      if (reply.kind === 'hang') return;
      if (reply.kind === 'drop') {
        // Let the text reach the client first: this is a drop *after* text, not instead of it.
        await ex.wait(30);
        res.socket?.destroy();
        return;
      }
      if (reply.kind === 'stream-error') {
        res.end(
          `data: ${JSON.stringify(openAiError(reply.message ?? 'The server had an error while processing your request.', reply.type ?? 'server_error'))}\n\n`,
        );
        return;
      }
      res.write(chunk([{ index: 0, delta: {}, logprobs: null, finish_reason: finish }]));
      if (includeUsage) res.write(chunk([], { usage }));
      res.end('data: [DONE]\n\n');
    },
  };
}

/** Starts the fake; with `apiKey`, requests must carry `Authorization: Bearer <apiKey>`. */
export function startFakeOpenAi(opts: { apiKey?: string | null; reply?: Reply } = {}): Promise<FakeProvider> {
  return startFake(protocol(opts.apiKey ?? null), opts.reply ?? { chunks: ['This is ', 'the default ', 'answer [1].'] });
}
