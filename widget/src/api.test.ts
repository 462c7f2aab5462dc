import { describe, expect, it } from 'vitest';
import { ApiError, createApi, kindForStatus } from './api.js';

const done = {
  status: 'success',
  data: {
    response: 'Hello **there**',
    sessionId: 's_1',
    confidence: 0.8,
    sources: [{ title: 'Doc', url: 'https://x.test/d' }],
    messageId: 'm_1',
    fallback: false,
    suggestions: [],
    handoff: null,
  },
};

// The stream parser's cases moved with it: server/src/lib/sse-parse.test.ts.

interface Call {
  url: string;
  init: RequestInit;
}

function fakeFetch(respond: (call: Call) => Response | Promise<Response>): { fetch: typeof fetch; calls: Call[] } {
  const calls: Call[] = [];
  const f = (async (url: string, init: RequestInit = {}) => {
    const call = { url: String(url), init };
    calls.push(call);
    return respond(call);
  }) as unknown as typeof fetch;
  return { fetch: f, calls };
}

function sse(chunks: Array<string | Uint8Array>, status = 200): Response {
  const enc = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      for (const ch of chunks) c.enqueue(typeof ch === 'string' ? enc.encode(ch) : ch);
      c.close();
    },
  });
  return new Response(body, { status, headers: { 'Content-Type': 'text/event-stream' } });
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('createApi', () => {
  it('builds URLs from the API origin and app id; GETs stay simple requests', async () => {
    const { fetch, calls } = fakeFetch(() => json({ status: 'success', data: { appId: 'a b' } }));
    const api = createApi('https://api.test/', 'a b', fetch);
    await api.config();
    expect(calls[0]!.url).toBe('https://api.test/v1/widget/a%20b/config');
    // no Content-Type on GET: no CORS preflight for the config and history reads
    expect(calls[0]!.init.headers).toEqual({});
    expect(calls[0]!.init.credentials).toBe('omit');
  });

  it('streams deltas, including a UTF-8 character split across chunks, and returns the done body', async () => {
    const frame = (e: string, d: unknown) => `event: ${e}\ndata: ${JSON.stringify(d)}\n\n`;
    const bytes = new TextEncoder().encode(frame('delta', { text: 'Grüße ' }) + frame('delta', { text: '👋' }) + frame('done', done));
    const cut1 = bytes.indexOf(0xc3) + 1; // inside "ü"
    const cut2 = bytes.indexOf(0xf0) + 2; // inside the emoji
    const { fetch, calls } = fakeFetch(() => sse([bytes.slice(0, cut1), bytes.slice(cut1, cut2), bytes.slice(cut2)]));
    const deltas: string[] = [];
    const r = await createApi('https://api.test', 'app', fetch).chat({ message: 'hi', sessionId: 's_0' }, (t) => deltas.push(t));
    expect(deltas).toEqual(['Grüße ', '👋']);
    expect(r).toEqual(done.data);
    expect(calls[0]!.url).toBe('https://api.test/v1/widget/app/chat');
    expect(calls[0]!.init.method).toBe('POST');
    expect(JSON.parse(String(calls[0]!.init.body))).toEqual({ message: 'hi', sessionId: 's_0', stream: true });
    expect(calls[0]!.init.headers).toEqual({ 'Content-Type': 'application/json' });
  });

  it('accepts a done event without the envelope', async () => {
    const { fetch } = fakeFetch(() => sse([`event: done\ndata: ${JSON.stringify(done.data)}\n\n`]));
    expect(await createApi('https://api.test', 'app', fetch).chat({ message: 'hi' }, () => {})).toEqual(done.data);
  });

  it('maps an error event mid-stream to an ApiError', async () => {
    const { fetch } = fakeFetch(() =>
      sse([
        'event: delta\ndata: {"text":"par"}\n\n',
        'event: error\ndata: {"error":{"code":"rate_limit_exceeded","message":"slow down"}}\n\n',
      ]),
    );
    const err = await createApi('https://api.test', 'app', fetch)
      .chat({ message: 'hi' }, () => {})
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).kind).toBe('rateLimited');
    expect((err as ApiError).code).toBe('rate_limit_exceeded');
  });

  it('treats a stream that ends without done as a server error', async () => {
    const { fetch } = fakeFetch(() => sse(['event: delta\ndata: {"text":"par"}\n\n']));
    await expect(createApi('https://api.test', 'app', fetch).chat({ message: 'hi' }, () => {})).rejects.toMatchObject({ kind: 'error' });
  });

  it('treats a stream cut off inside its done event as a server error, not as the answer', async () => {
    const { fetch } = fakeFetch(() => sse(['event: delta\ndata: {"text":"par"}\n\n', `event: done\ndata: ${JSON.stringify(done.data)}`]));
    await expect(createApi('https://api.test', 'app', fetch).chat({ message: 'hi' }, () => {})).rejects.toMatchObject({ kind: 'error' });
  });

  it.each([
    [429, 'rate_limit_exceeded', 'rateLimited'],
    [403, 'permission_denied', 'forbidden'],
    [404, 'resource_not_found', 'notFound'],
    [400, 'validation_error', 'invalid'],
    [500, 'server_error', 'error'],
    [502, '', 'error'],
  ])('maps HTTP %i before streaming to kind %s → %s', async (status, code, kind) => {
    const body = code ? { status: 'error', error: { code, message: 'x' } } : '<html>Bad gateway</html>';
    const { fetch } = fakeFetch(() => (typeof body === 'string' ? new Response(body, { status }) : json(body, status)));
    await expect(createApi('https://api.test', 'app', fetch).chat({ message: 'hi' }, () => {})).rejects.toMatchObject({ kind, status });
  });

  it('maps a rejected fetch to offline when the server cannot be reached at all', async () => {
    const f = (() => Promise.reject(new TypeError('Failed to fetch'))) as unknown as typeof fetch;
    await expect(createApi('https://api.test', 'app', f).history('s')).rejects.toMatchObject({ kind: 'offline' });
  });

  it('maps a CORS refusal (no CORS headers on the 403; a no-cors probe gets an opaque answer) to forbidden', async () => {
    const modes: Array<string | undefined> = [];
    const f = ((_url: string, init: RequestInit = {}) => {
      modes.push(init.mode);
      return init.mode === 'no-cors'
        ? Promise.resolve(new Response(null, { status: 200 }))
        : Promise.reject(new TypeError('Failed to fetch'));
    }) as unknown as typeof fetch;
    await expect(createApi('https://api.test', 'app', f).config()).rejects.toMatchObject({ kind: 'forbidden' });
    await expect(createApi('https://api.test', 'app', f).chat({ message: 'hi' }, () => {})).rejects.toMatchObject({ kind: 'forbidden' });
    expect(modes).toEqual([undefined, 'no-cors', undefined, 'no-cors']);
  });

  it('posts feedback and handoff bodies', async () => {
    const { fetch, calls } = fakeFetch(() => json({ status: 'success', data: { message: 'A human will reply' } }));
    const api = createApi('https://api.test', 'app', fetch);
    await api.feedback({ sessionId: 's', messageId: 'm', rating: 'down' });
    expect(await api.handoff({ sessionId: 's' })).toEqual({ message: 'A human will reply' });
    expect(calls.map((c) => [c.url, JSON.parse(String(c.init.body))])).toEqual([
      ['https://api.test/v1/widget/app/feedback', { sessionId: 's', messageId: 'm', rating: 'down' }],
      ['https://api.test/v1/widget/app/handoff', { sessionId: 's' }],
    ]);
  });

  it('kindForStatus falls back on the error code when there is no status', () => {
    expect(kindForStatus(0, 'server_error')).toBe('error');
    expect(kindForStatus(0, 'rate_limit_exceeded')).toBe('rateLimited');
    expect(kindForStatus(0, 'permission_denied')).toBe('forbidden');
    expect(kindForStatus(0, 'resource_not_found')).toBe('notFound');
  });
});
