import { Router, type Response } from 'express';
import { z } from 'zod';
import { visibleAssistant } from '../assistants/routes.js';
import { findUserById } from '../auth/service.js';
import type { AssistantStore } from '../assistants/service.js';
import type { AppContext } from '../context.js';
import { nowIso } from '../context.js';
import { principalOf, requirePermission } from '../auth/middleware.js';
import { AppError, notFound } from '../http/errors.js';
import { sendData } from '../http/pagination.js';
import { parseInput, pathParams } from '../http/validate.js';
import type { Conversation, ConversationStore, Message } from './store.js';

export const humanMessageSchema = z.strictObject({ content: z.string().trim().min(1).max(20_000) });
export const feedbackSchema = z.strictObject({
  messageId: z.string().min(1).max(64),
  rating: z.enum(['up', 'down']),
  comment: z.string().max(2000).optional(),
});

export async function conversationView(c: Conversation, store: ConversationStore) {
  return {
    sessionId: c.sessionId,
    assistantId: c.assistantId,
    startedAt: c.startedAt,
    lastMessageAt: c.lastMessageAt,
    endedAt: c.endedAt,
    status: c.status,
    metadata: c.metadata,
    messages: await store.messages(c.id),
  };
}

export function conversationsRouter(ctx: AppContext, store: ConversationStore, assistants: AssistantStore): Router {
  const r = Router();

  /** Sessions are organization-scoped; a key bound to an assistant sees only its conversations. */
  const visibleConversation = async (res: Response, sessionId: string): Promise<Conversation> => {
    const p = principalOf(res);
    const c = await store.findBySession(p.organizationId, sessionId);
    if (!c || (p.assistantId && c.assistantId !== p.assistantId)) throw notFound('Conversation');
    return c;
  };

  r.get('/integrations/:id/conversations/:sessionId', requirePermission('conversations:read'), async (req, res) => {
    const { id, sessionId } = pathParams(req, 'id', 'sessionId');
    const assistant = await visibleAssistant(assistants, res, id);
    const c = await visibleConversation(res, sessionId);
    if (c.assistantId !== assistant.id) throw notFound('Conversation');
    sendData(res, await conversationView(c, store));
  });

  // The seed's bare array, oldest first, for the analytics message view.
  r.get('/conversations/:sessionId/messages', requirePermission('conversations:read'), async (req, res) => {
    const { sessionId } = pathParams(req, 'sessionId');
    res.json(await store.messages((await visibleConversation(res, sessionId)).id));
  });

  r.post('/conversations/:sessionId/messages', requirePermission('conversations:write'), async (req, res) => {
    const { sessionId } = pathParams(req, 'sessionId');
    const c = await visibleConversation(res, sessionId);
    const input = parseInput(humanMessageSchema, req.body);
    const p = principalOf(res);
    // `author` is the internal id (for the team); `authorName` the member's name at the time, the only
    // thing a visitor sees (widget history, issue 24); null for an API key or a member without a name.
    const authorName = p.userId ? ((await findUserById(ctx.storage, p.userId))?.name ?? null) : null;
    const message = await ctx.storage.tx(async (tx) => {
      const [m] = await store.append(
        tx,
        c,
        [{ role: 'human_agent', content: input.content, metadata: { author: p.userId ?? p.credentialId, authorName } }],
        nowIso(ctx),
      );
      await ctx.webhooks.humanAgentMessage(tx, c, m as Message);
      return m;
    });
    sendData(res, message, 201);
  });

  r.post('/conversations/:sessionId/feedback', requirePermission(['chat', 'conversations:write']), async (req, res) => {
    const { sessionId } = pathParams(req, 'sessionId');
    const c = await visibleConversation(res, sessionId);
    const input = parseInput(feedbackSchema, req.body);
    if (!(await store.rate(c.id, input.messageId, input.rating, input.comment ?? null, nowIso(ctx)))) throw notFound('Assistant message');
    sendData(res, { sessionId: c.sessionId, messageId: input.messageId, rating: input.rating });
  });

  r.post('/conversations/:sessionId/end', requirePermission(['chat', 'conversations:write']), async (req, res) => {
    const { sessionId } = pathParams(req, 'sessionId');
    const c = await visibleConversation(res, sessionId);
    if (c.status === 'ended') throw new AppError('conflict', 'This conversation has already ended');
    const at = nowIso(ctx);
    await ctx.storage.tx(async (tx) => {
      if (await store.end(tx, c.id, at)) await ctx.webhooks.conversationEnded(tx, c, 'api', at);
    });
    sendData(res, { sessionId: c.sessionId, status: 'ended', endedAt: at });
  });

  return r;
}
