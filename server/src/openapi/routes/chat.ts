import { z } from 'zod';
import { appChatSchema, integrationChatSchema } from '../../chat/routes.js';
import { AUTH_ERRORS, AUTHENTICATED, defineRoutes, pathParams } from '../registry.js';
import { chatSource } from './common.js';

const integrationAnswer = z.object({
  response: z.string(),
  sessionId: z.string(),
  confidence: z.number().min(0).max(1),
  sources: z.array(chatSource),
  messageId: z.string(),
});
const appAnswer = z.object({
  response: z.string(),
  conversation_id: z.string(),
  confidence: z.number().min(0).max(1),
  sources: z.array(chatSource),
  messageId: z.string(),
});
const delta = z.object({ text: z.string() });
const streamError = z.object({ error: z.object({ code: z.string(), message: z.string() }) });
const tag = 'Chat';

/** docs/api-spec.md §7: the two chat routes. The integrations one speaks the seed's bare shapes (form 1 errors). */
export const chatRoutes = defineRoutes([
  {
    method: 'post',
    path: '/v1/integrations/{id}/chat',
    tag,
    summary: 'Chat with an assistant (bare body, form 1 errors)',
    auth: AUTHENTICATED,
    permission: 'chat',
    description: 'SSE instead of JSON with `"stream": true` or `Accept: text/event-stream`.',
    params: pathParams('id'),
    body: integrationChatSchema,
    example: { message: 'How do I reset my password?', sessionId: 'user-42.session', metadata: { userId: 'u42', source: 'web' } },
    success: { kind: 'bare', status: 200, schema: integrationAnswer },
    alternatives: [{ kind: 'sse', status: 200, events: { delta, done: integrationAnswer, error: streamError } }],
    errors: [400, ...AUTH_ERRORS, 404, 413],
    errorShape: 'form1',
  },
  {
    method: 'post',
    path: '/v1/apps/{id}/chat',
    tag,
    summary: 'Chat with an assistant (enveloped)',
    auth: AUTHENTICATED,
    permission: 'chat',
    params: pathParams('id'),
    body: appChatSchema,
    example: { message: 'How do I reset my password?', conversation_id: 'c-1' },
    success: { kind: 'envelope', status: 200, data: appAnswer },
    alternatives: [
      {
        kind: 'sse',
        status: 200,
        events: { delta, done: z.object({ status: z.literal('success'), data: appAnswer }), error: streamError },
      },
    ],
    errors: [400, ...AUTH_ERRORS, 404, 413],
  },
]);
