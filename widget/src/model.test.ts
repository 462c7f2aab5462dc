import { describe, expect, it, vi } from 'vitest';
import { ApiError, type Api, type ChatResult, type History, type WidgetConfig } from './api.js';
import { createModel, DEFAULT_CONFIG, historySources, text, type KeyValueStore } from './model.js';

const config: WidgetConfig = {
  appId: 'app',
  name: 'Acme Helper',
  avatarUrl: null,
  language: 'en',
  welcomeMessage: 'Hi!',
  theme: 'light',
  colors: null,
  position: 'bottom-right',
  initialState: 'collapsed',
  iconUrl: null,
  collectFeedback: true,
  handoff: { enabled: true, message: 'A person will reply', email: 'help@acme.test' },
  dir: 'rtl',
  strings: { open: 'افتح المحادثة مع {name}', send: 'إرسال' },
};

const answer = (over: Partial<ChatResult> = {}): ChatResult => ({
  response: 'Answer',
  sessionId: 'sess_1',
  confidence: 0.9,
  sources: [{ title: 'Guide', url: 'https://acme.test/guide' }],
  messageId: 'msg_a',
  fallback: false,
  suggestions: [],
  handoff: null,
  ...over,
});

function memoryStore(init: Record<string, string> = {}): KeyValueStore & { data: Record<string, string> } {
  const data = { ...init };
  return {
    data,
    getItem: (k) => data[k] ?? null,
    setItem: (k, v) => void (data[k] = v),
    removeItem: (k) => void delete data[k],
  };
}

function fakeApi(over: Partial<Api> = {}): Api {
  return {
    config: vi.fn(async () => config),
    chat: vi.fn(async (_b, onDelta) => {
      onDelta('Ans');
      onDelta('wer');
      return answer();
    }),
    history: vi.fn(async (sessionId: string): Promise<History> => ({ sessionId, messages: [] })),
    feedback: vi.fn(async () => ({})),
    handoff: vi.fn(async () => ({ message: 'Connecting you to a person' })),
    ...over,
  };
}

/** Resolvable promise, to observe the model between streamed deltas. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('createModel', () => {
  it('loads the config and honours initialState', async () => {
    const collapsed = createModel({ api: fakeApi(), appId: 'app' });
    expect(collapsed.loaded.value).toBe(false);
    await collapsed.init();
    expect(collapsed.loaded.value).toBe(true);
    expect(collapsed.config.value.name).toBe('Acme Helper');
    expect(collapsed.isOpen.value).toBe(false);

    const expanded = createModel({ api: fakeApi({ config: async () => ({ ...config, initialState: 'expanded' }) }), appId: 'app' });
    await expanded.init();
    expect(expanded.isOpen.value).toBe(true);
  });

  it('shows a retryable error when the config cannot load, and recovers on retry', async () => {
    let fail = true;
    const api = fakeApi({
      config: vi.fn(async () => {
        if (fail) throw new ApiError('error', 503);
        return config;
      }),
    });
    const m = createModel({ api, appId: 'app' });
    await m.init();
    expect(m.loaded.value).toBe(false);
    expect(m.error.value?.kind).toBe('error');
    fail = false;
    m.error.value!.retry!();
    await vi.waitFor(() => expect(m.loaded.value).toBe(true));
    expect(m.error.value).toBeNull();
  });

  it('a disallowed origin is a non-retryable forbidden error', async () => {
    const m = createModel({ api: fakeApi({ config: async () => Promise.reject(new ApiError('forbidden', 403)) }), appId: 'app' });
    await m.init();
    expect(m.error.value).toEqual({ kind: 'forbidden', retry: undefined });
  });

  it('streams an answer into one assistant message and keeps the server session id', async () => {
    const store = memoryStore();
    const step = deferred<void>();
    const api = fakeApi({
      chat: vi.fn(async (_b, onDelta) => {
        onDelta('Hel');
        await step.promise;
        onDelta('lo');
        return answer({
          response: 'Hello',
          sources: [
            { title: 'Guide', url: 'https://acme.test/guide' },
            { title: 'Guide', url: 'https://acme.test/guide' },
          ],
        });
      }),
    });
    const m = createModel({ api, appId: 'app', storage: store });
    await m.init();
    const sending = m.send('  What is Acme?  ');
    expect(m.busy.value).toBe(true);
    expect(m.messages.value.map((x) => [x.role, x.content, !!x.streaming])).toEqual([
      ['user', 'What is Acme?', false],
      ['assistant', 'Hel', true],
    ]);
    step.resolve();
    await sending;
    expect(m.busy.value).toBe(false);
    const last = m.messages.value[1]!;
    expect(last).toMatchObject({ role: 'assistant', content: 'Hello', id: 'msg_a', streaming: false });
    expect(last.sources).toEqual([{ title: 'Guide', url: 'https://acme.test/guide' }]); // deduplicated
    expect(api.chat).toHaveBeenCalledWith({ message: 'What is Acme?' }, expect.any(Function));
    expect(m.sessionId.value).toBe('sess_1');
    expect(store.data['parley:app:session']).toBe('sess_1');

    await m.send('And pricing?');
    expect(api.chat).toHaveBeenLastCalledWith({ message: 'And pricing?', sessionId: 'sess_1' }, expect.any(Function));
  });

  it('ignores empty messages and a second send while busy', async () => {
    const step = deferred<ChatResult>();
    const api = fakeApi({ chat: vi.fn(() => step.promise) });
    const m = createModel({ api, appId: 'app' });
    await m.send('   ');
    expect(api.chat).not.toHaveBeenCalled();
    const first = m.send('one');
    await m.send('two');
    expect(api.chat).toHaveBeenCalledTimes(1);
    step.resolve(answer());
    await first;
  });

  it('submit sends the draft and clears it', async () => {
    const m = createModel({ api: fakeApi(), appId: 'app' });
    m.draft.value = 'hello';
    m.submit();
    expect(m.draft.value).toBe('');
    await vi.waitFor(() => expect(m.busy.value).toBe(false));
    expect(m.messages.value.map((x) => x.content)).toEqual(['hello', 'Answer']);
  });

  it('on a 429 keeps the question, drops the partial answer, and retry re-asks once', async () => {
    let calls = 0;
    const api = fakeApi({
      chat: vi.fn(async (_b, onDelta) => {
        calls++;
        onDelta('partial');
        if (calls === 1) throw new ApiError('rateLimited', 429);
        return answer();
      }),
    });
    const m = createModel({ api, appId: 'app' });
    await m.send('Question');
    expect(m.error.value?.kind).toBe('rateLimited');
    expect(m.messages.value.map((x) => x.role)).toEqual(['user']);
    m.error.value!.retry!();
    await vi.waitFor(() => expect(m.busy.value).toBe(false));
    expect(m.error.value).toBeNull();
    expect(m.messages.value.map((x) => [x.role, x.content])).toEqual([
      ['user', 'Question'],
      ['assistant', 'Answer'],
    ]);
    expect(api.chat).toHaveBeenCalledTimes(2);
  });

  it('non-ApiErrors become a generic server error, never raw text', async () => {
    const m = createModel({
      api: fakeApi({ chat: async () => Promise.reject(new SyntaxError('Unexpected token < in JSON')) }),
      appId: 'app',
    });
    await m.send('x');
    expect(m.error.value?.kind).toBe('error');
  });

  it('restores history from storage and converts source maps', async () => {
    const store = memoryStore({ 'parley:app:session': 'sess_9' });
    const history: History = {
      sessionId: 'sess_9',
      messages: [
        { id: 'u1', role: 'user', content: 'Q', timestamp: '2025-01-01T00:00:00Z' },
        {
          id: 'a1',
          role: 'assistant',
          content: 'A',
          timestamp: '2025-01-01T00:00:01Z',
          metadata: {
            confidence: 0.7,
            sources: {
              '2': { url: 'https://b.test', text: 't', score: 0.5 },
              '1': { title: 'First', url: 'https://a.test', text: 't', score: 0.9 },
            },
          },
        },
        { id: 'h1', role: 'human_agent', content: 'Hi, Sam here', timestamp: '2025-01-01T00:00:02Z' },
      ],
    };
    const api = fakeApi({ history: vi.fn(async () => history) });
    const m = createModel({ api, appId: 'app', storage: store });
    await m.init();
    expect(api.history).toHaveBeenCalledWith('sess_9');
    expect(m.messages.value.map((x) => [x.id, x.role])).toEqual([
      ['u1', 'user'],
      ['a1', 'assistant'],
      ['h1', 'human_agent'],
    ]);
    expect(m.messages.value[1]!.sources).toEqual([
      { title: 'First', url: 'https://a.test' },
      { title: 'https://b.test', url: 'https://b.test' },
    ]);
  });

  it('forgets a session the server no longer knows', async () => {
    const store = memoryStore({ 'parley:app:session': 'gone' });
    const m = createModel({
      api: fakeApi({ history: async () => Promise.reject(new ApiError('notFound', 404)) }),
      appId: 'app',
      storage: store,
    });
    await m.init();
    expect(m.sessionId.value).toBeNull();
    expect(store.data).toEqual({});
    expect(m.error.value).toBeNull();
  });

  it('keeps working when storage throws', async () => {
    const broken: KeyValueStore = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceeded');
      },
      removeItem: () => {
        throw new Error('SecurityError');
      },
    };
    const m = createModel({ api: fakeApi(), appId: 'app', storage: broken });
    await m.init();
    await m.send('hi');
    expect(m.sessionId.value).toBe('sess_1');
    m.newConversation();
    expect(m.sessionId.value).toBeNull();
  });

  it('offers fallback suggestions under the latest answer only', async () => {
    const api = fakeApi({
      chat: vi.fn(async () => answer({ fallback: true, suggestions: ['Pricing', 'Contact sales'], handoff: config.handoff })),
    });
    const m = createModel({ api, appId: 'app' });
    await m.init();
    await m.send('???');
    expect(m.suggestions.value).toEqual(['Pricing', 'Contact sales']);
    expect(m.messages.value[1]!.handoff?.message).toBe('A person will reply');
    (api.chat as ReturnType<typeof vi.fn>).mockResolvedValueOnce(answer({ response: 'Plans start at $9' }));
    await m.send(m.suggestions.value[0]!);
    expect(api.chat).toHaveBeenLastCalledWith({ message: 'Pricing', sessionId: 'sess_1' }, expect.any(Function));
    expect(m.suggestions.value).toEqual([]);
  });

  it('suggestions are ignored unless the answer is a fallback', async () => {
    const m = createModel({ api: fakeApi({ chat: async () => answer({ fallback: false, suggestions: ['x'] }) }), appId: 'app' });
    await m.send('q');
    expect(m.suggestions.value).toEqual([]);
  });

  it('rates an answer optimistically and reverts on failure', async () => {
    const feedback = vi.fn(async () => ({}));
    const m = createModel({ api: fakeApi({ feedback }), appId: 'app' });
    await m.send('q');
    await m.rate(m.messages.value[1]!, 'up');
    expect(feedback).toHaveBeenCalledWith({ sessionId: 'sess_1', messageId: 'msg_a', rating: 'up' });
    expect(m.messages.value[1]!.rating).toBe('up');

    feedback.mockRejectedValueOnce(new ApiError('error', 500));
    await m.rate(m.messages.value[1]!, 'down');
    expect(m.messages.value[1]!.rating).toBe('up');
    expect(m.error.value?.kind).toBe('error');
  });

  it('does not rate messages the server has not acknowledged', async () => {
    const feedback = vi.fn(async () => ({}));
    const m = createModel({ api: fakeApi({ feedback }), appId: 'app' });
    await m.rate({ key: 'local-1', role: 'assistant', content: 'x', sources: [] }, 'up');
    expect(feedback).not.toHaveBeenCalled();
  });

  it('hands off to a human and polls for their replies', async () => {
    const store = memoryStore();
    let tick: (() => void) | undefined;
    const clearInterval = vi.fn();
    const history = vi.fn(async (sessionId: string): Promise<History> => ({
      sessionId,
      messages: [
        { id: 'u1', role: 'user', content: 'q', timestamp: '' },
        { id: 'msg_a', role: 'assistant', content: 'Answer', timestamp: '' },
        { id: 'h1', role: 'human_agent', content: 'Hi, this is Sam', timestamp: '' },
      ],
    }));
    const api = fakeApi({ history });
    const m = createModel({ api, appId: 'app', storage: store, setInterval: (fn) => ((tick = fn), 42), clearInterval });
    await m.init();
    expect(m.canHandoff.value).toBe(false); // no session yet
    await m.send('q');
    expect(m.canHandoff.value).toBe(true);
    await m.requestHandoff();
    expect(api.handoff).toHaveBeenCalledWith({ sessionId: 'sess_1' });
    expect(m.notice.value).toBe('Connecting you to a person');
    expect(m.handoffActive.value).toBe(true);
    expect(m.canHandoff.value).toBe(false);
    expect(store.data['parley:app:handoff']).toBe('Connecting you to a person');

    tick!();
    await vi.waitFor(() => expect(m.messages.value).toHaveLength(3));
    expect(m.messages.value[2]).toMatchObject({ role: 'human_agent', content: 'Hi, this is Sam' });
    tick!(); // the same reply is not added twice
    await vi.waitFor(() => expect(history).toHaveBeenCalledTimes(2));
    expect(m.messages.value).toHaveLength(3);

    m.newConversation();
    expect(clearInterval).toHaveBeenCalledWith(42);
    expect(m.messages.value).toEqual([]);
    expect(m.handoffActive.value).toBe(false);
    expect(store.data).toEqual({});
  });

  it('resumes polling after a reload during an active handoff', async () => {
    const setInterval = vi.fn(() => 1);
    const store = memoryStore({ 'parley:app:session': 's', 'parley:app:handoff': 'We will reply here' });
    const m = createModel({ api: fakeApi(), appId: 'app', storage: store, setInterval, pollMs: 10_000 });
    await m.init();
    expect(setInterval).toHaveBeenCalledWith(expect.any(Function), 10_000);
    expect(m.handoffActive.value).toBe(true);
    expect(m.notice.value).toBe('We will reply here');
  });
});

describe('historySources', () => {
  it('orders by source number and skips entries with neither url nor title', () => {
    expect(
      historySources({
        sources: {
          '10': { url: 'https://c.test', text: '', score: 0 },
          '2': { title: 'B', url: null, text: '', score: 0 },
          '3': { text: '', score: 0 },
        },
      }),
    ).toEqual([
      { title: 'B', url: null },
      { title: 'https://c.test', url: 'https://c.test' },
    ]);
    expect(historySources(undefined)).toEqual([]);
    expect(historySources(null)).toEqual([]);
  });
});

describe('interface texts (API.md §12: from the config, not built in)', () => {
  it("shows the server's texts with the assistant's name filled in, and '' for a key it did not send", () => {
    expect(text(config, 'open')).toBe('افتح المحادثة مع Acme Helper');
    expect(text(config, 'send')).toBe('إرسال');
    expect(text(config, 'placeholder')).toBe('');
  });

  it("keeps the server's texts and direction once the config arrives", async () => {
    const m = createModel({ api: fakeApi(), appId: 'app' });
    expect(text(m.config.value, 'send')).toBe(''); // nothing English to flash before the config
    await m.init();
    expect(m.config.value.dir).toBe('rtl');
    expect(text(m.config.value, 'send')).toBe('إرسال');
  });

  it('has a few English texts only for a config that never arrived: what a refused or offline widget shows', async () => {
    const m = createModel({ api: fakeApi({ config: async () => Promise.reject(new ApiError('forbidden', 403)) }), appId: 'app' });
    await m.init();
    expect(m.error.value?.kind).toBe('forbidden');
    for (const key of ['open', 'close', 'dialog', 'retry', 'error', 'offline', 'forbidden'] as const)
      expect(text(m.config.value, key), key).not.toBe('');
    expect(Object.keys(DEFAULT_CONFIG.strings).length).toBeLessThanOrEqual(7);
  });
});
