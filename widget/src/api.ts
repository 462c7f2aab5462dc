// Talks to the public widget API (§10). No DOM, no globals except the injected fetch,
// so the model tests can drive it with a fake.
import { createSseParser, type SseEvent } from '../../server/src/lib/sse-parse.js';

export type Theme = 'light' | 'dark' | 'custom';
export type Position = 'bottom-right' | 'bottom-left' | 'top-right' | 'top-left';

export interface Handoff {
  enabled: boolean;
  message: string;
  url?: string | null;
  email?: string | null;
}

export interface WidgetConfig {
  appId: string;
  name: string;
  avatarUrl: string | null;
  language: string;
  welcomeMessage: string;
  theme: Theme;
  colors: { primary: string; background: string; text: string } | null;
  position: Position;
  initialState: 'collapsed' | 'expanded';
  iconUrl: string | null;
  collectFeedback: boolean;
  handoff: Handoff | null;
  /** docs/api-spec.md §12: the reading direction and every interface text, in the assistant's language. */
  dir?: 'ltr' | 'rtl';
  strings: Partial<Record<TextKey, string>>;
}

/** The server's keys (server/src/i18n/texts.ts); `{name}` in a text is the assistant's name. */
export type TextKey =
  | 'placeholder'
  | 'send'
  | 'open'
  | 'close'
  | 'newConversation'
  | 'helpful'
  | 'notHelpful'
  | 'sources'
  | 'talkToHuman'
  | 'offline'
  | 'error'
  | 'dialog'
  | 'subtitle'
  | 'inputLabel'
  | 'wasHelpful'
  | 'suggestions'
  | 'supportTeam'
  | 'needHelp'
  | 'contactPage'
  | 'retry'
  | 'rateLimited'
  | 'forbidden'
  | 'notFound'
  | 'invalid';

export interface Source {
  title: string;
  url: string | null;
}

export interface ChatResult {
  response: string;
  sessionId: string;
  confidence: number;
  sources: Source[];
  messageId: string;
  fallback?: boolean;
  suggestions?: string[];
  handoff?: Handoff | null;
}

export interface HistoryMessage {
  id: string;
  role: 'user' | 'assistant' | 'human_agent';
  content: string;
  timestamp: string;
  metadata?: {
    sources?: Record<string, { title?: string; url?: string | null; text?: string; score?: number }>;
    confidence?: number;
  } | null;
}

export interface History {
  sessionId: string;
  messages: HistoryMessage[];
}

/** What the UI needs to know about a failure: which friendly line to show, and nothing raw. */
/** Each is also the key of its text in the config's `strings`. */
export type ErrorKind = 'offline' | 'rateLimited' | 'forbidden' | 'notFound' | 'invalid' | 'error';

export class ApiError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly status = 0,
    readonly code = '',
  ) {
    super(code || kind);
  }
}

// HTTP status first; an SSE `error` event has only the §2 code (rate_limit_exceeded, …).
export function kindForStatus(status: number, code = ''): ErrorKind {
  if (status === 429 || /rate/.test(code)) return 'rateLimited';
  if (status === 403 || /perm/.test(code)) return 'forbidden';
  if (status === 404 || /not_f/.test(code)) return 'notFound';
  if (status === 400 || status === 413 || /vali|large/.test(code)) return 'invalid';
  return 'error';
}

type Fetch = typeof fetch;

export interface Api {
  config(): Promise<WidgetConfig>;
  chat(body: { message: string; sessionId?: string }, onDelta: (text: string) => void): Promise<ChatResult>;
  history(sessionId: string): Promise<History>;
  feedback(body: { sessionId: string; messageId: string; rating: 'up' | 'down' }): Promise<unknown>;
  handoff(body: { sessionId: string; email?: string; note?: string }): Promise<{ message: string }>;
}

export function createApi(base: string, appId: string, fetchFn: Fetch = (...a) => fetch(...a)): Api {
  const root = `${base.replace(/\/+$/, '')}/v1/widget/${encodeURIComponent(appId)}`;

  async function send(path: string, init?: RequestInit): Promise<Response> {
    let res: Response;
    try {
      res = await fetchFn(root + path, {
        ...init,
        // The widget never sends cookies: the session id is the only identity it has.
        credentials: 'omit',
        headers: init?.body ? { 'Content-Type': 'application/json' } : {},
      });
    } catch {
      // fetch rejects on network failure and also on a CORS refusal; the browser hides which.
      // A disallowed site gets no CORS headers at all (not even on its 403), so a no-cors probe
      // tells them apart: an opaque answer means the server is up and refused this site's origin.
      throw new ApiError((await reachable()) ? 'forbidden' : 'offline');
    }
    if (!res.ok) {
      const body = (await res.json().catch(() => null)) as { error?: { code?: string } } | null;
      const code = body?.error?.code ?? '';
      throw new ApiError(kindForStatus(res.status, code), res.status, code);
    }
    return res;
  }

  function reachable(): Promise<boolean> {
    return fetchFn(`${root}/config`, { mode: 'no-cors', credentials: 'omit' }).then(
      () => true,
      () => false,
    );
  }

  async function json<T>(path: string, init?: RequestInit): Promise<T> {
    const res = await send(path, init);
    const body = (await res.json().catch(() => null)) as { data?: T } | null;
    if (!body || body.data === undefined) throw new ApiError('error', res.status);
    return body.data;
  }

  const post = (body: unknown): RequestInit => ({ method: 'POST', body: JSON.stringify(body) });

  return {
    config: () => json<WidgetConfig>('/config'),
    history: (sessionId) => json<History>(`/conversations/${encodeURIComponent(sessionId)}`),
    feedback: (body) => json('/feedback', post(body)),
    handoff: (body) => json<{ message: string }>('/handoff', post(body)),

    async chat(body, onDelta) {
      const res = await send('/chat', {
        ...post({ ...body, stream: true }),
      });
      if (!res.body) throw new ApiError('error', res.status);
      let result: ChatResult | undefined;
      let failure: ApiError | undefined;
      const parser = createSseParser();
      const handle = ({ event, data }: SseEvent): void => {
        if (result || failure) return;
        let payload: any;
        try {
          payload = JSON.parse(data);
        } catch {
          return; // a malformed frame is skipped, not shown
        }
        if (event === 'delta' && typeof payload?.text === 'string') onDelta(payload.text);
        else if (event === 'done') result = payload?.data ?? payload;
        else if (event === 'error') {
          const code = String(payload?.error?.code ?? '');
          failure = new ApiError(kindForStatus(0, code), 0, code);
        }
      };
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          // stream: true keeps a multi-byte character split across chunks intact.
          parser.feed(decoder.decode(value, { stream: true })).forEach(handle);
          if (result || failure) break;
        }
        // An event the stream ended in the middle of is dropped (lib/sse-parse.ts): no `done`, an error.
        parser.feed(decoder.decode()).forEach(handle);
      } catch {
        if (!result && !failure) throw new ApiError('offline');
      } finally {
        reader.cancel().catch(() => {});
      }
      if (failure) throw failure;
      if (!result || typeof result.response !== 'string') throw new ApiError('error', res.status);
      return result;
    },
  };
}
