import { z } from 'zod';
import { feedbackSchema, humanMessageSchema } from '../../conversations/routes.js';
import { AUTH_ERRORS, AUTHENTICATED, defineRoutes, ID_ERRORS, pathParams } from '../registry.js';
import { message } from './common.js';

const conversation = z
  .object({
    sessionId: z.string(),
    assistantId: z.string(),
    startedAt: z.string(),
    lastMessageAt: z.string(),
    endedAt: z.string().nullable(),
    status: z.enum(['active', 'ended']),
    metadata: z.record(z.string(), z.unknown()),
    messages: z.array(message),
  })
  .loose();
const tag = 'Conversations';

/** docs/api-spec.md §7: conversations, messages, feedback. */
export const conversationRoutes = defineRoutes([
  {
    method: 'get',
    path: '/v1/integrations/{id}/conversations/{sessionId}',
    tag,
    summary: 'A conversation with its messages',
    auth: AUTHENTICATED,
    permission: 'conversations:read',
    params: pathParams('id', 'sessionId'),
    success: { kind: 'envelope', status: 200, data: conversation },
    errors: [...AUTH_ERRORS, ...ID_ERRORS],
  },
  {
    method: 'get',
    path: '/v1/conversations/{sessionId}/messages',
    tag,
    summary: 'Messages, oldest first (bare array)',
    auth: AUTHENTICATED,
    permission: 'conversations:read',
    params: pathParams('sessionId'),
    success: { kind: 'bare', status: 200, schema: z.array(message) },
    errors: [...AUTH_ERRORS, ...ID_ERRORS],
  },
  {
    method: 'post',
    path: '/v1/conversations/{sessionId}/messages',
    tag,
    summary: 'Reply as a human agent (handoff)',
    auth: AUTHENTICATED,
    permission: 'conversations:write',
    params: pathParams('sessionId'),
    body: humanMessageSchema,
    example: { content: 'Hi, this is Sam from support.' },
    success: { kind: 'envelope', status: 201, data: message },
    errors: [400, ...AUTH_ERRORS, ...ID_ERRORS, 413],
  },
  {
    method: 'post',
    path: '/v1/conversations/{sessionId}/feedback',
    tag,
    summary: 'Rate an assistant message',
    auth: AUTHENTICATED,
    permission: ['chat', 'conversations:write'],
    params: pathParams('sessionId'),
    body: feedbackSchema,
    example: { messageId: 'msg_1', rating: 'up', comment: 'Helpful' },
    success: {
      kind: 'envelope',
      status: 200,
      data: z.object({ sessionId: z.string(), messageId: z.string(), rating: z.enum(['up', 'down']) }),
    },
    errors: [400, ...AUTH_ERRORS, ...ID_ERRORS, 413],
  },
  {
    method: 'post',
    path: '/v1/conversations/{sessionId}/end',
    tag,
    summary: 'End a conversation',
    auth: AUTHENTICATED,
    permission: ['chat', 'conversations:write'],
    params: pathParams('sessionId'),
    success: { kind: 'envelope', status: 200, data: z.object({ sessionId: z.string(), status: z.literal('ended'), endedAt: z.string() }) },
    errors: [...AUTH_ERRORS, ...ID_ERRORS, 409],
  },
]);
