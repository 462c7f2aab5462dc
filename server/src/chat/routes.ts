import type { Request, RequestHandler, Response } from 'express';
import { z } from 'zod';
import { recentVisibleAssistant } from '../assistants/routes.js';
import type { AssistantStore } from '../assistants/service.js';
import type { Channel } from '../conversations/store.js';
import { principalOf, requirePermission } from '../auth/middleware.js';
import { AppError, errorBody, toAppError } from '../http/errors.js';
import { sendJson } from '../http/json-response.js';
import { openSse, wantsStream } from '../http/sse.js';
import { pathParams } from '../http/validate.js';
import { jsonByteLength } from '../lib/json-size.js';
import type { Logger } from '../lib/logger.js';
import type { ChatInput, ChatResult, ChatService } from './service.js';

export const SESSION_ID = z.string().regex(/^[A-Za-z0-9_.:@-]{1,128}$/, 'must be 1-128 characters of A-Z a-z 0-9 _ . : @ -');
export const MAX_MESSAGE_CHARS = 4000;
export const MAX_METADATA_BYTES = 8 * 1024;

export const messageField = z
  .string({ error: (i) => (i.input === undefined ? 'The message parameter is required' : 'message must be a string') })
  .refine((s) => s.trim().length > 0, { message: 'The message parameter is required and must not be empty' })
  .refine((s) => s.length <= MAX_MESSAGE_CHARS, { message: `message must be at most ${MAX_MESSAGE_CHARS} characters` });

const metadataField = z
  .record(z.string(), z.unknown())
  // Counted without recursion: a deeply nested value cannot overflow the stack here.
  .refine((m) => jsonByteLength(m, MAX_METADATA_BYTES) <= MAX_METADATA_BYTES, {
    message: `metadata must be at most ${MAX_METADATA_BYTES} bytes of JSON`,
  })
  .refine((m) => ['userId', 'source'].every((k) => m[k] === undefined || typeof m[k] === 'string'), {
    message: 'metadata.userId and metadata.source must be strings',
  });

export const integrationChatSchema = z.object({
  message: messageField,
  sessionId: SESSION_ID.optional(),
  metadata: metadataField.optional(),
  stream: z.boolean().optional(),
  explain: z.boolean().optional(),
});
export const appChatSchema = z.object({
  message: messageField,
  conversation_id: SESSION_ID.optional(),
  metadata: metadataField.optional(),
  stream: z.boolean().optional(),
  explain: z.boolean().optional(),
});

/**
 * `explain: true` shows the retrieved passages (knowledge text): only for callers that may read
 * the assistant's configuration (user sessions of every role, keys with assistants:read).
 */
function wantsExplain(res: Response, explain: boolean | undefined): boolean {
  if (!explain) return false;
  if (!principalOf(res).permissions.has('assistants:read'))
    throw new AppError('permission_denied', 'explain needs the assistants:read permission');
  return true;
}

/** The dashboard's playground marks its conversations, so analytics can leave them out. */
const channelFor = (metadata: Record<string, unknown> | undefined, otherwise: Channel): Channel =>
  metadata?.source === 'playground' ? 'playground' : otherwise;

/** First failing field's message, so "message missing" reads as the seed says. */
export function parseChatBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new AppError('validation_error', 'Request body must be a JSON object with a message parameter');
  }
  const result = schema.safeParse(body);
  if (!result.success) {
    const issue = result.error.issues[0];
    const path = issue?.path.join('.') ?? '';
    const message = issue?.message ?? 'Invalid request';
    throw new AppError('validation_error', path === 'message' || message.startsWith(path) ? message : `${path}: ${message}`);
  }
  return result.data;
}

/** Runs one chat as JSON or SSE; `shape` turns the result into the route's body. */
export async function respondToChat(opts: {
  req: Request;
  res: Response;
  logger: Logger;
  chat: ChatService;
  input: Omit<ChatInput, 'signal' | 'onDelta'>;
  stream: boolean;
  bareErrors: boolean;
  shape: (r: ChatResult) => unknown;
}): Promise<void> {
  const { req, res } = opts;
  const abort = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) abort.abort();
  });
  if (!opts.stream) {
    sendJson(res, opts.shape(await opts.chat.chat({ ...opts.input, signal: abort.signal })));
    return;
  }
  const sse = openSse(res);
  try {
    const result = await opts.chat.chat({ ...opts.input, signal: abort.signal, onDelta: (text) => sse.send('delta', { text }) });
    sse.send('done', opts.shape(result));
  } catch (err) {
    const appError = toAppError(err) ?? new AppError('server_error', 'Internal server error');
    if (!toAppError(err))
      opts.logger.error('chat stream failed', {
        requestId: res.locals.requestId,
        path: req.path,
        error: err instanceof Error ? err.stack : String(err),
      });
    const body = errorBody(appError, opts.bareErrors) as { error: unknown };
    sse.send('error', { error: body.error });
  } finally {
    sse.end();
  }
}

/** A chat route: its path under /v1 and /api/v1, and its handlers (after auth, rate limit and body). */
export interface ChatRoute {
  path: string;
  handlers: RequestHandler[];
}

/**
 * The two chat routes (docs/api-spec.md §2). app.ts mounts them on the app itself, ahead of everything
 * else: a chat request walks no router's layers (Express routing was a tenth of its profile).
 */
export function chatRoutes(deps: { chat: ChatService; assistants: AssistantStore; logger: Logger }): ChatRoute[] {
  // The integrations endpoint speaks the seed's bare shapes (docs/api-spec.md §2).
  const integrations: RequestHandler = async (req, res) => {
    const { id } = pathParams(req, 'id');
    const body = parseChatBody(integrationChatSchema, req.body);
    const assistant = await recentVisibleAssistant(deps.assistants, res, id);
    const explain = wantsExplain(res, body.explain);
    await respondToChat({
      req,
      res,
      logger: deps.logger,
      chat: deps.chat,
      bareErrors: true,
      stream: wantsStream(req.body, req.headers.accept),
      input: {
        assistant,
        message: body.message,
        sessionId: body.sessionId ?? null,
        metadata: body.metadata ?? {},
        channel: channelFor(body.metadata, 'api'),
        explain,
      },
      shape: (r) => ({
        response: r.response,
        sessionId: r.sessionId,
        confidence: r.confidence,
        sources: r.sources,
        messageId: r.messageId,
        ...(r.explain && { explain: r.explain }),
      }),
    });
  };

  const apps: RequestHandler = async (req, res) => {
    const { id } = pathParams(req, 'id');
    const body = parseChatBody(appChatSchema, req.body);
    const assistant = await recentVisibleAssistant(deps.assistants, res, id);
    const explain = wantsExplain(res, body.explain);
    const shape = (r: ChatResult) => ({
      response: r.response,
      conversation_id: r.sessionId,
      confidence: r.confidence,
      sources: r.sources,
      messageId: r.messageId,
      ...(r.explain && { explain: r.explain }),
    });
    await respondToChat({
      req,
      res,
      logger: deps.logger,
      chat: deps.chat,
      bareErrors: false,
      stream: wantsStream(req.body, req.headers.accept),
      input: {
        assistant,
        message: body.message,
        sessionId: body.conversation_id ?? null,
        metadata: body.metadata ?? {},
        channel: channelFor(body.metadata, 'app'),
        explain,
      },
      shape: (r) => ({ status: 'success', data: shape(r) }),
    });
  };

  const chat = requirePermission('chat');
  return [
    { path: '/integrations/:id/chat', handlers: [chat, integrations] },
    { path: '/apps/:id/chat', handlers: [chat, apps] },
  ];
}
