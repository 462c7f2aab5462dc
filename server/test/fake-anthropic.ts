/**
 * A local server speaking the Anthropic Messages API as api.anthropic.com does:
 * `POST /v1/messages` with `x-api-key` and `anthropic-version: 2023-06-01`; JSON `message`
 * answers or, with `stream: true`, the SSE sequence `message_start`, `content_block_start`,
 * `ping`, `content_block_delta` (`text_delta`)…, `content_block_stop`, `message_delta`
 * (stop_reason, usage), `message_stop`; `error` events inside the stream; errors as
 * `{"type":"error","error":{type,message}}` (429 rate_limit_error, 529 overloaded_error…).
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
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

export function anthropicError(type: string, message: string) {
  return { type: 'error', error: { type, message } };
}

function inputTokens(body: { system?: unknown; messages?: { content?: unknown }[] }): number {
  const system = typeof body.system === 'string' ? countTokens(body.system) : 0;
  return system + (body.messages ?? []).reduce((n, m) => n + countTokens(typeof m.content === 'string' ? m.content : ''), 0);
}

function protocol(apiKey: string | null): Protocol {
  let seq = 0;
  return {
    validate(r: RecordedRequest) {
      if (r.method !== 'POST' || r.path !== '/v1/messages') return { status: 404, body: anthropicError('not_found_error', 'Not found') };
      if (!r.headers['anthropic-version'])
        return { status: 400, body: anthropicError('invalid_request_error', 'anthropic-version: header is required') };
      if (apiKey !== null && r.headers['x-api-key'] !== apiKey)
        return { status: 401, body: anthropicError('authentication_error', 'invalid x-api-key') };
      const b = r.body as Record<string, unknown> | undefined;
      if (!b || typeof b !== 'object')
        return { status: 400, body: anthropicError('invalid_request_error', 'Request body is not valid JSON') };
      if (typeof b.model !== 'string') return { status: 400, body: anthropicError('invalid_request_error', 'model: Field required') };
      if (!Number.isInteger(b.max_tokens) || (b.max_tokens as number) < 1)
        return { status: 400, body: anthropicError('invalid_request_error', 'max_tokens: Field required') };
      if (!Array.isArray(b.messages) || !b.messages.length)
        return { status: 400, body: anthropicError('invalid_request_error', 'messages: at least one message is required') };
      const messages = b.messages as { role?: unknown; content?: unknown }[];
      if (messages.some((m) => (m.role !== 'user' && m.role !== 'assistant') || typeof m.content !== 'string')) {
        return {
          status: 400,
          body: anthropicError('invalid_request_error', 'messages: roles must be "user" or "assistant" with string content'),
        };
      }
      if (messages.some((m) => m.role === 'system'))
        return { status: 400, body: anthropicError('invalid_request_error', 'messages: use the top-level system parameter') };
      if (b.system !== undefined && typeof b.system !== 'string' && !Array.isArray(b.system))
        return { status: 400, body: anthropicError('invalid_request_error', 'system: Input should be a valid string') };
      if (b.temperature !== undefined && (typeof b.temperature !== 'number' || b.temperature < 0 || b.temperature > 1)) {
        return { status: 400, body: anthropicError('invalid_request_error', 'temperature: range: 0..1') };
      }
      return null;
    },

    async respond(ex: Exchange, reply: Reply) {
      const { res, record } = ex;
      const body = record.body as { model: string; stream?: boolean };
      const id = `msg_fake${++seq}`;
      if (reply.kind === 'error') {
        res.writeHead(reply.status, { 'content-type': 'application/json', 'request-id': `req_${id}`, ...reply.headers });
        res.end(
          JSON.stringify(anthropicError(reply.type ?? ERROR_TYPES[reply.status] ?? 'api_error', reply.message ?? `Error ${reply.status}`)),
        );
        return;
      }
      const chunks = reply.chunks ?? [];
      const text = chunks.join('');
      const usage = {
        input_tokens: isText(reply) && reply.usage ? reply.usage.prompt : inputTokens(record.body),
        output_tokens: isText(reply) && reply.usage ? reply.usage.completion : chunks.length,
      };
      const stopReason = isText(reply) ? (reply.finish ?? 'end_turn') : 'end_turn';

      if (!body.stream) {
        if (reply.kind === 'hang') return;
        if (reply.kind === 'drop') {
          res.socket?.destroy();
          return;
        }
        if (isText(reply) && reply.firstDelayMs && !(await ex.wait(reply.firstDelayMs))) return;
        res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_${id}`, ...(isText(reply) && reply.headers) });
        const content = [
          ...(isText(reply) && reply.thinking ? [{ type: 'thinking', thinking: reply.thinking, signature: 'sig' }] : []),
          { type: 'text', text },
        ];
        ex.writeText(
          JSON.stringify({
            id,
            type: 'message',
            role: 'assistant',
            model: body.model,
            content,
            stop_reason: stopReason,
            stop_sequence: null,
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
        'request-id': `req_${id}`,
        ...(isText(reply) && reply.headers),
      });
      const event = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
      res.write(
        event('message_start', {
          message: {
            id,
            type: 'message',
            role: 'assistant',
            model: body.model,
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: usage.input_tokens, output_tokens: 1 },
          },
        }),
      );
      let index = 0;
      if (isText(reply) && reply.thinking) {
        res.write(event('content_block_start', { index, content_block: { type: 'thinking', thinking: '' } }));
        res.write(event('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: reply.thinking } }));
        res.write(event('content_block_delta', { index, delta: { type: 'signature_delta', signature: 'sig' } }));
        res.write(event('content_block_stop', { index }));
        index++;
      }
      res.write(event('content_block_start', { index, content_block: { type: 'text', text: '' } }));
      res.write(event('ping', {}));
      const alive = await paced(ex, { ...reply, chunks }, (t) =>
        ex.writeText(event('content_block_delta', { index, delta: { type: 'text_delta', text: t } })),
      );
      if (!alive || reply.kind === 'hang') return;
      if (reply.kind === 'drop') {
        // Let the text reach the client first: this is a drop *after* text, not instead of it.
        await ex.wait(30);
        res.socket?.destroy();
        return;
      }
      if (reply.kind === 'stream-error') {
        res.end(event('error', { error: { type: reply.type ?? 'overloaded_error', message: reply.message ?? 'Overloaded' } }));
        return;
      }
      res.write(event('content_block_stop', { index }));
      res.write(
        event('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } }),
      );
      res.end(event('message_stop', {}));
    },
  };
}

/** Starts the fake; with `apiKey`, requests must carry `x-api-key: <apiKey>`. */
export function startFakeAnthropic(opts: { apiKey?: string | null; reply?: Reply } = {}): Promise<FakeProvider> {
  return startFake(protocol(opts.apiKey ?? null), opts.reply ?? { chunks: ['This is ', 'the default ', 'answer [1].'] });
}
