import type { DemoTestServer } from '../../../server/test/test-server.js';

// Test traffic for the Dashboard II models and e2e tests, written through the real chat paths
// (integration API with connector sources, the widget API with a handoff, feedback), so every
// rollup, gap and citation is made the way production makes it.

export const ANSWERED = 'How do I create an API key?';
export const UNANSWERED = 'Who painted the Mona Lisa?';

export interface Traffic {
  /** Session ids by what the test did with them. */
  api: string;
  slack: string;
  rated: string;
  fellBack: string;
  playground: string;
  widget: string;
  /** Every non-playground conversation written. */
  all: string[];
}

async function call(
  server: DemoTestServer,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<any> {
  const res = await fetch(server.url + path, {
    method,
    headers: { Authorization: `Bearer ${server.apiKey}`, 'Content-Type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json().catch(() => null);
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(json)}`);
  return json;
}

export const chat = (server: DemoTestServer, message: string, sessionId?: string, metadata?: Record<string, unknown>) =>
  call(server, 'POST', `/v1/integrations/${server.assistantId}/chat`, { message, sessionId, metadata }) as Promise<{
    response: string;
    sessionId: string;
    confidence: number;
  }>;

/** A widget visitor (the demo assistant allows the server's own origin): chats, then asks for a human. */
export async function widgetHandoff(server: DemoTestServer, message = UNANSWERED): Promise<string> {
  const origin = { Origin: server.url };
  const r = await call(server, 'POST', `/v1/widget/${server.assistantId}/chat`, { message }, origin);
  const sessionId = r.data.sessionId as string;
  await call(
    server,
    'POST',
    `/v1/widget/${server.assistantId}/handoff`,
    { sessionId, email: 'visitor@example.com', note: 'Please call me' },
    origin,
  );
  return sessionId;
}

/** The last assistant message id of a conversation (for feedback). */
async function lastAnswerId(server: DemoTestServer, sessionId: string): Promise<string> {
  const messages = (await call(server, 'GET', `/v1/conversations/${sessionId}/messages`)) as { id: string; role: string }[];
  return messages.filter((m) => m.role === 'assistant').at(-1)!.id;
}

export async function rate(server: DemoTestServer, sessionId: string, rating: 'up' | 'down', comment?: string): Promise<void> {
  await call(server, 'POST', `/v1/conversations/${sessionId}/feedback`, {
    messageId: await lastAnswerId(server, sessionId),
    rating,
    comment,
  });
}

export async function writeTraffic(server: DemoTestServer): Promise<Traffic> {
  const api = (await chat(server, ANSWERED, undefined, { userId: 'ann' })).sessionId;
  await chat(server, 'How do I embed the chat widget on my website?', api);
  const slack = (await chat(server, ANSWERED, undefined, { source: 'slack', userId: 'bob' })).sessionId;
  const rated = (await chat(server, ANSWERED, undefined, { userId: 'cy' })).sessionId;
  await rate(server, rated, 'down', 'Too short');
  const fellBack = (await chat(server, UNANSWERED, undefined, { userId: 'dee' })).sessionId;
  const playground = (await chat(server, ANSWERED, undefined, { source: 'playground' })).sessionId;
  const widget = await widgetHandoff(server);
  return { api, slack, rated, fellBack, playground, widget, all: [api, slack, rated, fellBack, widget] };
}

/**
 * The server's demo traffic (server/src/demo/traffic.ts): `conversations` realistic
 * conversations over the past 90 days through the real chat path (channels, ratings, gaps,
 * handoffs, agent replies), deterministic for a seed. Returns how many it wrote.
 */
export async function seedDemoTraffic(server: DemoTestServer, conversations: number, days = 80, seed = 13): Promise<number> {
  const [{ seedTraffic }, { createAssistantStore }] = await Promise.all([
    import('../../../server/src/demo/traffic.js'),
    import('../../../server/src/assistants/service.js'),
  ]);
  const r = await seedTraffic(server.ctx, createAssistantStore(server.ctx.storage), {
    organizationId: server.organizationId,
    assistantId: server.assistantId,
    nowMs: server.ctx.clock.now(),
    conversations,
    days,
    seed,
  });
  return r.conversations;
}

/** Conversations of the organization by channel, straight from the database (the tests' oracle). */
export async function countConversations(server: DemoTestServer, where = "channel_group != 'playground'"): Promise<number> {
  const row = await server.ctx.storage.get<{ n: number }>(
    `SELECT count(*) AS n FROM conversations WHERE organization_id = ? AND ${where}`,
    [server.organizationId],
  );
  return row?.n ?? 0;
}
