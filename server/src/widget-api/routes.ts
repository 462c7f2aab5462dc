import { Router, type NextFunction, type Request, type Response } from 'express';
import { z } from 'zod';
import { respondToChat, parseChatBody, messageField } from '../chat/routes.js';
import type { ChatResult, ChatService } from '../chat/service.js';
import type { AppContext } from '../context.js';
import { nowIso } from '../context.js';
import type { Conversation, ConversationStore } from '../conversations/store.js';
import type { Assistant } from '../assistants/service.js';
import { AppError, notFound } from '../http/errors.js';
import { sendData } from '../http/pagination.js';
import { rateLimitError, setRateHeaders } from '../http/rate-limit.js';
import { wantsStream } from '../http/sse.js';
import { parseInput, pathParams } from '../http/validate.js';
import { randomBase62 } from '../lib/ids.js';
import { PLAN_LIMITS } from '../auth/permissions.js';
import { messageInLanguage, textDirection, widgetTexts } from '../i18n/locales.js';
import { originAllowed, requestOrigin } from './origin.js';

/** Abuse limits of the public widget API (docs/api-spec.md §10). */
export const WIDGET_LIMITS = { perSessionPerDay: 100, perIpPerMinute: 30 } as const;

const WIDGET_SESSION = z.string().regex(/^ws_[A-Za-z0-9]{32}$/, 'must be a session id issued by this server');
export const chatSchema = z.object({ message: messageField, sessionId: z.string().max(128).optional(), stream: z.boolean().optional() });
export const feedbackSchema = z.strictObject({
  sessionId: WIDGET_SESSION,
  messageId: z.string().min(1).max(64),
  rating: z.enum(['up', 'down']),
  comment: z.string().max(2000).optional(),
});
export const handoffSchema = z.strictObject({
  sessionId: WIDGET_SESSION,
  email: z.email().max(254).optional(),
  note: z.string().max(2000).optional(),
});

export const newWidgetSessionId = (): string => `ws_${randomBase62(32)}`;

/** A message as a visitor may see it: a team reply's author is a display name (or null), never a user or key id. */
function forVisitor<M extends { metadata?: Record<string, unknown> }>(m: M): M {
  if (!m.metadata || (!('author' in m.metadata) && !('authorName' in m.metadata))) return m;
  const { author: _id, authorName, ...metadata } = m.metadata;
  return { ...m, metadata: { ...metadata, author: typeof authorName === 'string' ? authorName : null } };
}

interface WidgetDeps {
  ctx: AppContext;
  chat: ChatService;
  conversations: ConversationStore;
  findAssistant: (id: string) => Promise<Assistant | null>;
}

export function widgetRouter({ ctx, chat, conversations, findAssistant }: WidgetDeps): Router {
  const r = Router();
  const planOf = async (organizationId: string): Promise<keyof typeof PLAN_LIMITS> =>
    (await ctx.storage.get<{ plan: keyof typeof PLAN_LIMITS }>('SELECT plan FROM organizations WHERE id = ?', [organizationId]))?.plan ??
    'free';

  /** Loads the assistant and enforces its origin allowlist; CORS headers only for allowed origins. */
  async function guard(req: Request, res: Response, next: NextFunction): Promise<void> {
    const assistant = await findAssistant(pathParams(req, 'appId').appId);
    if (!assistant) throw notFound('Assistant');
    const origin = requestOrigin(req);
    if (!originAllowed(origin, assistant.widget.allowedOrigins, new URL(ctx.config.publicUrl).origin)) {
      // No CORS grant of any kind for a refused origin (docs/api-spec.md §10: CORS answers only allowed
      // origins): its page cannot read the 403, so the widget infers the refusal from the opaque
      // failure (widget/src/api.ts) and the body's reason is for curl and server-side callers.
      throw new AppError(
        'permission_denied',
        origin
          ? `This site (${origin}) is not allowed to use this assistant's widget: add it to widget.allowedOrigins`
          : 'Widget requests must come from a web page whose origin is allowed',
      );
    }
    if (typeof req.headers.origin === 'string') {
      res.setHeader('Access-Control-Allow-Origin', req.headers.origin);
      res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
      res.setHeader('Access-Control-Allow-Headers', 'Content-Type, Accept');
      res.setHeader('Access-Control-Max-Age', '600');
    }
    res.locals.widgetAssistant = assistant;
    next();
  }
  const assistantOf = (res: Response): Assistant => res.locals.widgetAssistant as Assistant;

  // The context's limit store (shared by instances when it is Redis); `widget:` keeps these keys apart from credentials'.
  async function limit(key: string, limits: { perMinute: number; perDay: number }, res: Response, message: string): Promise<void> {
    const d = await ctx.limiter.take(`widget:${key}`, limits);
    setRateHeaders(res, d);
    if (!d.allowed) throw rateLimitError(d, message);
  }
  const limitIp = (req: Request, res: Response) =>
    limit(
      `ip:${req.ip}`,
      { perMinute: WIDGET_LIMITS.perIpPerMinute, perDay: Infinity },
      res,
      'Too many messages from your network, please wait a minute',
    );

  /** A widget may only read conversations it started itself, with the id it was issued. */
  const widgetConversation = async (assistant: Assistant, sessionId: string): Promise<Conversation> => {
    const c = await conversations.findBySession(assistant.organizationId, sessionId);
    if (!c || c.assistantId !== assistant.id || c.channel !== 'widget') throw notFound('Conversation');
    return c;
  };

  r.use('/widget/:appId', (req, res, next) => {
    res.vary('Origin');
    next();
  });
  r.options('/widget/:appId/*rest', guard, (_req, res) => {
    res.status(204).end();
  });

  r.get('/widget/:appId/config', guard, (_req, res) => {
    const a = assistantOf(res);
    res.setHeader('Cache-Control', 'public, max-age=60');
    // The widget shows only these texts (docs/api-spec.md §12): widget.js carries no language of its own.
    sendData(res, {
      appId: a.id,
      name: a.name,
      avatarUrl: a.avatarUrl,
      language: a.language,
      welcomeMessage: messageInLanguage('welcome', a.widget.welcomeMessage, a.language),
      theme: a.widget.theme,
      colors: a.widget.colors,
      position: a.widget.position,
      initialState: a.widget.initialState,
      iconUrl: a.widget.iconUrl,
      collectFeedback: a.fallback.collectFeedback,
      handoff: {
        enabled: a.fallback.handoff.enabled,
        message: messageInLanguage('handoff', a.fallback.handoff.message, a.language),
        url: a.fallback.handoff.url ?? null,
        email: a.fallback.handoff.email ?? null,
      },
      dir: textDirection(a.language),
      strings: widgetTexts(a.language, a.widget.strings),
    });
  });

  r.post('/widget/:appId/chat', guard, async (req, res) => {
    const a = assistantOf(res);
    const body = parseChatBody(chatSchema, req.body);
    await limitIp(req, res);
    // Unknown or foreign ids start a new conversation: a widget cannot pick its own session id.
    let sessionId: string | null = null;
    if (body.sessionId && WIDGET_SESSION.safeParse(body.sessionId).success) {
      const c = await conversations.findBySession(a.organizationId, body.sessionId);
      if (c && c.assistantId === a.id && c.channel === 'widget') sessionId = c.sessionId;
    }
    sessionId ??= newWidgetSessionId();
    const plan = await planOf(a.organizationId);
    await limit(
      `assistant:${a.id}`,
      { perMinute: Infinity, perDay: PLAN_LIMITS[plan].perDay },
      res,
      'This assistant has reached its daily message limit, please try again tomorrow',
    );
    await limit(
      `session:${sessionId}`,
      { perMinute: Infinity, perDay: WIDGET_LIMITS.perSessionPerDay },
      res,
      'This conversation has reached its daily message limit',
    );
    const shape = (result: ChatResult) => ({
      status: 'success',
      data: {
        response: result.response,
        sessionId: result.sessionId,
        confidence: result.confidence,
        sources: result.sources,
        messageId: result.messageId,
        fallback: result.fallback,
        suggestions: result.suggestions,
        handoff: result.handoff,
      },
    });
    await respondToChat({
      req,
      res,
      logger: ctx.logger,
      chat,
      bareErrors: false,
      stream: wantsStream(req.body, req.headers.accept),
      input: {
        assistant: a,
        message: body.message,
        sessionId,
        metadata: { source: 'widget', origin: requestOrigin(req) },
        channel: 'widget',
      },
      shape,
    });
  });

  r.get('/widget/:appId/conversations/:sessionId', guard, async (req, res) => {
    const { sessionId } = pathParams(req, 'sessionId');
    const a = assistantOf(res);
    if (!WIDGET_SESSION.safeParse(sessionId).success) throw notFound('Conversation');
    const c = await widgetConversation(a, sessionId);
    res.setHeader('Cache-Control', 'no-store');
    sendData(res, { sessionId: c.sessionId, status: c.status, messages: (await conversations.messages(c.id)).map(forVisitor) });
  });

  r.post('/widget/:appId/feedback', guard, async (req, res) => {
    const a = assistantOf(res);
    await limitIp(req, res);
    const input = parseInput(feedbackSchema, req.body);
    if (!a.fallback.collectFeedback) throw new AppError('validation_error', 'Feedback collection is turned off for this assistant');
    const c = await widgetConversation(a, input.sessionId);
    if (!(await conversations.rate(c.id, input.messageId, input.rating, input.comment ?? null, nowIso(ctx))))
      throw notFound('Assistant message');
    sendData(res, { messageId: input.messageId, rating: input.rating });
  });

  r.post('/widget/:appId/handoff', guard, async (req, res) => {
    const a = assistantOf(res);
    await limitIp(req, res);
    const input = parseInput(handoffSchema, req.body);
    if (!a.fallback.handoff.enabled) throw new AppError('validation_error', 'Human handoff is not enabled for this assistant');
    const c = await widgetConversation(a, input.sessionId);
    await conversations.requestHandoff(c.id, nowIso(ctx), { email: input.email ?? null, note: input.note ?? null });
    sendData(res, { sessionId: c.sessionId, requested: true, message: widgetTexts(a.language, a.widget.strings).handoffRequested });
  });

  return r;
}
