import { z } from 'zod';
import { chatSchema, feedbackSchema, handoffSchema } from '../../widget-api/routes.js';
import { defineRoutes, pathParams, PUBLIC, wildcard } from '../registry.js';
import { chatSource, message } from './common.js';
import { WIDGET_TEXT_KEYS } from '../../i18n/texts.js';

const answer = z
  .object({
    response: z.string(),
    sessionId: z.string(),
    confidence: z.number().min(0).max(1),
    sources: z.array(chatSource),
    messageId: z.string(),
    fallback: z.unknown(),
    suggestions: z.unknown(),
    handoff: z.unknown(),
  })
  .loose();
/** docs/api-spec.md §12: the widget's interface texts in the assistant's language, the owner's `widget.strings` on top. */
const widgetStrings = z
  .object(Object.fromEntries(WIDGET_TEXT_KEYS.map((k) => [k, z.string()])))
  .describe("The widget's texts in the assistant's language (English when Parley has none for it); `{name}` is the assistant's name");
const config = z
  .object({
    appId: z.string(),
    name: z.string(),
    avatarUrl: z.string().nullable(),
    language: z.string(),
    welcomeMessage: z.string(),
    theme: z.string(),
    colors: z.unknown(),
    position: z.string(),
    initialState: z.string(),
    iconUrl: z.string().nullable(),
    collectFeedback: z.boolean(),
    handoff: z.object({ enabled: z.boolean(), message: z.string(), url: z.string().nullable(), email: z.string().nullable() }),
    dir: z.enum(['ltr', 'rtl']).describe("Text direction of the assistant's language (rtl for ar, he, fa, ur, …)"),
    strings: widgetStrings,
  })
  .loose();
const tag = 'Widget (public)';
const description =
  "No bearer token: the `Origin` header must be one of the assistant's widget.allowedOrigins (or PUBLIC_URL's origin); CORS headers only for allowed origins.";
const errors = [400, 403, 404, 413, 429];

/** docs/api-spec.md §10: the public widget API. */
export const widgetRoutes = defineRoutes([
  {
    method: 'get',
    path: '/v1/widget/{appId}/config',
    tag,
    summary: 'Widget appearance and behaviour',
    description,
    auth: PUBLIC,
    params: pathParams('appId'),
    success: { kind: 'envelope', status: 200, data: config },
    errors: [403, 404],
  },
  {
    method: 'post',
    path: '/v1/widget/{appId}/chat',
    tag,
    summary: 'Chat from the widget',
    description,
    auth: PUBLIC,
    params: pathParams('appId'),
    body: chatSchema,
    example: { message: 'Do you ship to Canada?' },
    success: { kind: 'envelope', status: 200, data: answer },
    alternatives: [
      {
        kind: 'sse',
        status: 200,
        events: {
          delta: z.object({ text: z.string() }),
          done: z.object({ status: z.literal('success'), data: answer }),
          error: z.object({ error: z.object({ code: z.string(), message: z.string() }) }),
        },
      },
    ],
    errors,
  },
  {
    method: 'get',
    path: '/v1/widget/{appId}/conversations/{sessionId}',
    tag,
    summary: 'A conversation the widget started',
    description,
    auth: PUBLIC,
    params: pathParams('appId', 'sessionId'),
    success: { kind: 'envelope', status: 200, data: z.object({ sessionId: z.string(), status: z.string(), messages: z.array(message) }) },
    errors: [403, 404],
  },
  {
    method: 'post',
    path: '/v1/widget/{appId}/feedback',
    tag,
    summary: 'Rate an answer',
    description,
    auth: PUBLIC,
    params: pathParams('appId'),
    body: feedbackSchema,
    example: { sessionId: 'ws_0123456789abcdefghijABCDEFGHIJ01', messageId: 'msg_1', rating: 'up' },
    success: { kind: 'envelope', status: 200, data: z.object({ messageId: z.string(), rating: z.enum(['up', 'down']) }) },
    errors,
  },
  {
    method: 'post',
    path: '/v1/widget/{appId}/handoff',
    tag,
    summary: 'Ask for a human',
    description,
    auth: PUBLIC,
    params: pathParams('appId'),
    body: handoffSchema,
    example: { sessionId: 'ws_0123456789abcdefghijABCDEFGHIJ01', email: 'visitor@example.com', note: 'Order 1234' },
    success: { kind: 'envelope', status: 200, data: z.object({ sessionId: z.string(), requested: z.literal(true), message: z.string() }) },
    errors,
  },
  {
    method: 'options',
    path: '/v1/widget/{appId}/{rest}',
    tag,
    summary: 'CORS preflight',
    description,
    auth: PUBLIC,
    params: z.object({ appId: z.string().min(1).max(200), rest: wildcard('any path below the assistant') }),
    success: { kind: 'empty', status: 204 },
    errors: [403, 404],
  },
]);
