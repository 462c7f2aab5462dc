import { startTestServer } from '../../../server/test/test-server.js';
import { startRecordingServer, type FakeResponse, type RecordedRequest } from './recording-server.js';

/**
 * The REAL Parley server (seeded demo knowledge base and assistant, all-permission key) behind
 * a recording proxy: answers come from the server, and the proxy lets a test assert exactly what
 * the connector sent (session id, metadata) and what the server answered, without reaching
 * into the server's database.
 */
export interface ParleyUnderTest {
  /** The proxy's URL: give this to the connector as PARLEY_URL. */
  url: string;
  apiKey: string;
  assistantId: string;
  requests: RecordedRequest[];
  chatRequests(): RecordedRequest[];
  /** Each chat call with the server's answer, in order. */
  chatExchanges(): { request: ChatRequestBody; status: number; response: ChatResponseBody }[];
  /**
   * The next chat calls get these answers from the proxy instead of the server: how a test
   * produces a 429 or a 503 on demand, which a real server does not do when asked.
   */
  overrideNextChats(...responses: FakeResponse[]): void;
  /** Changes the assistant's record the way an admin would (PATCH /v1/assistants/:id). */
  patchAssistant(patch: Record<string, unknown>): Promise<void>;
  close(): Promise<void>;
}

export interface ChatRequestBody {
  message: string;
  sessionId: string;
  metadata: Record<string, string>;
}

export interface ChatResponseBody {
  response: string;
  sessionId: string;
  confidence: number;
  sources: { title: string; url: string }[];
  messageId: string;
}

export async function startParleyUnderTest(): Promise<ParleyUnderTest> {
  const server = await startTestServer();
  const overrides: FakeResponse[] = [];
  const answers = new Map<RecordedRequest, { status: number; body: string }>();
  const isChat = (r: RecordedRequest) => r.method === 'POST' && r.path.endsWith('/chat');

  const proxy = await startRecordingServer(async (req) => {
    if (isChat(req)) {
      const override = overrides.shift();
      if (override) {
        answers.set(req, { status: override.status ?? 200, body: JSON.stringify(override.body ?? null) });
        return override;
      }
    }
    const query = req.query.toString();
    const upstream = await fetch(`${server.url}${req.path.split('/').map(encodeURIComponent).join('/')}${query ? `?${query}` : ''}`, {
      method: req.method,
      headers: pickHeaders(req.headers, ['authorization', 'content-type', 'accept']),
      ...(req.method === 'GET' || req.method === 'HEAD' ? {} : { body: req.rawBody }),
    });
    const body = await upstream.text();
    if (isChat(req)) answers.set(req, { status: upstream.status, body });
    return {
      status: upstream.status,
      headers: pickHeaders(Object.fromEntries(upstream.headers), ['content-type', 'retry-after']),
      body,
    };
  });

  return {
    url: proxy.url,
    apiKey: server.apiKey,
    assistantId: server.assistantId,
    requests: proxy.requests,
    chatRequests: () => proxy.requests.filter(isChat),
    chatExchanges: () =>
      proxy.requests.filter(isChat).map((r) => {
        const answer = answers.get(r);
        return {
          request: r.body as ChatRequestBody,
          status: answer?.status ?? 0,
          response: (answer ? JSON.parse(answer.body) : undefined) as ChatResponseBody,
        };
      }),
    overrideNextChats(...responses) {
      overrides.push(...responses);
    },
    async patchAssistant(patch) {
      // Straight to the server: the proxy's record stays what the connector did.
      const res = await fetch(`${server.url}/v1/assistants/${server.assistantId}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify(patch),
      });
      if (res.status !== 200) throw new Error(`PATCH assistant failed: ${res.status} ${await res.text()}`);
    },
    async close() {
      await proxy.close();
      await server.close();
    },
  };
}

function pickHeaders(headers: Record<string, string | string[] | undefined>, names: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = headers[name];
    if (typeof value === 'string') out[name] = value;
  }
  return out;
}
