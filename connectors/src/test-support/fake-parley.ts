import type { FakeResponse, RecordedRequest, RecordingServer } from './recording-server.js';
import { startRecordingServer } from './recording-server.js';

/**
 * A scriptable stand-in for the Parley server, for what the real one cannot be made to do on
 * demand (429 with Retry-After, 503, malformed bodies). Tests that exercise the happy path use
 * the real server (test-server.ts); this one is for failures and the client's retry loop.
 */
export interface FakeParley extends RecordingServer {
  apiKey: string;
  assistantId: string;
  assistant: Record<string, unknown>;
  /** Queued answers for the next chat calls; when empty, a default answer echoing the question. */
  chatResponses: ((req: RecordedRequest) => FakeResponse)[];
  chatRequests(): RecordedRequest[];
}

export async function startFakeParley(assistant: Record<string, unknown> = {}): Promise<FakeParley> {
  const apiKey = 'sk_fake_key_for_tests';
  const assistantId = 'asst_fake';
  // Read by the handler on every request, so tests can change the assistant or queue answers at any time.
  const state = {
    assistant: { id: assistantId, name: 'Fake Assistant', ...assistant } as Record<string, unknown>,
    chatResponses: [] as ((req: RecordedRequest) => FakeResponse)[],
  };
  let messageCounter = 0;

  const server = await startRecordingServer((req) => {
    if (req.headers.authorization !== `Bearer ${apiKey}`) {
      return { status: 401, body: { error: { code: 'UNAUTHORIZED', message: 'Invalid API key' } } };
    }
    if (req.method === 'GET' && req.path === `/v1/assistants/${assistantId}`) {
      return { body: { status: 'success', data: state.assistant } };
    }
    if (req.method === 'POST' && req.path === `/v1/integrations/${assistantId}/chat`) {
      const next = state.chatResponses.shift();
      if (next) return next(req);
      const body = req.body as { message: string; sessionId: string };
      messageCounter += 1;
      return {
        body: {
          response: `Answer to: ${body.message}`,
          sessionId: body.sessionId,
          confidence: 0.9,
          sources: [{ title: 'Getting started', url: 'https://docs.example.com/start' }],
          messageId: `msg_${messageCounter}`,
        },
      };
    }
    if (req.method === 'POST' && /^\/v1\/conversations\/[^/]+\/feedback$/.test(req.path)) {
      return { body: { status: 'success', data: { ok: true } } };
    }
    return { status: 404, body: { status: 'error', error: { code: 'resource_not_found', message: 'Not found' } } };
  });

  const fake: FakeParley = {
    ...server,
    apiKey,
    assistantId,
    get assistant() {
      return state.assistant;
    },
    set assistant(value: Record<string, unknown>) {
      state.assistant = value;
    },
    chatResponses: state.chatResponses,
    chatRequests: () => server.requests.filter((r) => r.path.endsWith('/chat')),
  };
  return fake;
}
