import { batch, computed, signal } from '@preact/signals';
import {
  ApiError,
  type Api,
  type ErrorKind,
  type Handoff,
  type HistoryMessage,
  type Source,
  type TextKey,
  type WidgetConfig,
} from './api.js';

// The widget's whole state and behaviour; components only read these signals and call actions.
// No DOM here: storage and timers come in as parameters so tests can drive every transition.

export type Role = 'user' | 'assistant' | 'human_agent';

export interface Message {
  /** Local key; for server-known messages this is the server's message id. */
  key: string;
  /** Server message id (feedback needs it); undefined for unsent/streaming ones. */
  id?: string;
  role: Role;
  content: string;
  sources: Source[];
  streaming?: boolean;
  rating?: 'up' | 'down';
  suggestions?: string[];
  handoff?: Handoff | null;
}

export interface ErrorState {
  kind: ErrorKind;
  retry?: () => void;
}

export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface ModelDeps {
  api: Api;
  appId: string;
  storage?: KeyValueStore | null;
  /** Handoff polling interval; ~10 s in production. */
  pollMs?: number;
  setInterval?: (fn: () => void, ms: number) => unknown;
  clearInterval?: (id: unknown) => void;
}

export const DEFAULT_CONFIG: WidgetConfig = {
  appId: '',
  name: 'Assistant',
  avatarUrl: null,
  language: 'en',
  welcomeMessage: '',
  theme: 'light',
  colors: null,
  position: 'bottom-right',
  initialState: 'collapsed',
  iconUrl: null,
  collectFeedback: false,
  handoff: null,
  // The server sends every text in the assistant's language; these few English ones are only for
  // a config that never arrived (a refused site, an outage), so widget.js carries no language.
  strings: {
    open: 'Open chat',
    close: 'Close chat',
    dialog: 'Chat',
    retry: 'Try again',
    error: 'Something went wrong.',
    offline: "Can't connect.",
    forbidden: "Chat isn't available on this website.",
  },
};

/** An interface text with the assistant's name filled in; '' for a key the server did not send. */
export const text = (c: WidgetConfig, key: TextKey): string => (c.strings[key] || '').replace('{name}', c.name);

/** History sources are a map {"1": {...}, "2": ...}; answers carry an array. Normalise to the array. */
export function historySources(meta: HistoryMessage['metadata']): Source[] {
  const map = meta?.sources;
  if (!map || typeof map !== 'object') return [];
  // Integer-like keys iterate in ascending numeric order, so "2" comes before "10".
  return Object.values(map)
    .filter((s) => s && (s.url || s.title))
    .map((s) => ({ title: s.title || s.url || '', url: s.url ?? null }));
}

/** One chip per document: several sections of one page would otherwise repeat its title. */
function dedupe(sources: Source[] | undefined): Source[] {
  const seen = new Set<string>();
  return (sources ?? []).filter((s) => {
    const k = s.title || s.url;
    if (!k || seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

// Storage can throw (Safari private mode, sandboxed iframes, disabled cookies): never let it break chat.
function safe<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback;
  }
}

export type Model = ReturnType<typeof createModel>;

export function createModel(deps: ModelDeps) {
  const { api, storage } = deps;
  const sessionKey = `parley:${deps.appId}:session`;
  const handoffKey = `parley:${deps.appId}:handoff`;
  const setI = deps.setInterval ?? ((fn, ms) => setInterval(fn, ms));
  const clearI = deps.clearInterval ?? ((id) => clearInterval(id as number));

  const config = signal<WidgetConfig>(DEFAULT_CONFIG);
  const loaded = signal(false);
  const isOpen = signal(false);
  const messages = signal<Message[]>([]);
  const busy = signal(false);
  const error = signal<ErrorState | null>(null);
  const sessionId = signal<string | null>(safe(() => storage?.getItem(sessionKey) ?? null, null));
  /** While a handoff is active: the server's confirmation, kept so a reload can show it again. */
  const notice = signal<string | null>(safe(() => storage?.getItem(handoffKey) ?? null, null));
  const handoffActive = computed(() => notice.value !== null);
  /** The composer's text lives here so it survives closing and reopening the panel. */
  const draft = signal('');

  const last = computed(() => messages.value[messages.value.length - 1]);
  /** Suggestions are offered only under the latest answer, and only while idle. */
  const suggestions = computed(() => (!busy.value && last.value?.role === 'assistant' && last.value.suggestions) || []);
  const canHandoff = computed(() => !!config.value.handoff?.enabled && !!sessionId.value && !handoffActive.value);

  let seq = 0;
  const localKey = () => `local-${++seq}`;
  let pollTimer: unknown = null;

  function setSession(id: string | null): void {
    sessionId.value = id;
    safe(() => (id ? storage?.setItem(sessionKey, id) : storage?.removeItem(sessionKey)), undefined);
  }

  function setHandoff(message: string | null): void {
    const on = message !== null;
    notice.value = message;
    safe(() => (on ? storage?.setItem(handoffKey, message) : storage?.removeItem(handoffKey)), undefined);
    if (on && pollTimer === null) pollTimer = setI(() => void poll(), deps.pollMs ?? 10_000);
    if (!on && pollTimer !== null) {
      clearI(pollTimer);
      pollTimer = null;
    }
  }

  function update(key: string, patch: Partial<Message>): void {
    messages.value = messages.value.map((m) => (m.key === key ? { ...m, ...patch } : m));
  }

  function fail(e: unknown, retry?: () => void): void {
    const kind = e instanceof ApiError ? e.kind : 'error';
    // Nothing the user can do about a refusal or a bad request by retrying the same thing.
    error.value = { kind, retry: kind === 'forbidden' || kind === 'invalid' ? undefined : retry };
  }

  function fromHistory(m: HistoryMessage): Message {
    return { key: m.id, id: m.id, role: m.role, content: m.content, sources: dedupe(historySources(m.metadata)) };
  }

  async function loadHistory(): Promise<void> {
    const id = sessionId.value;
    if (!id) return;
    try {
      const h = await api.history(id);
      if (sessionId.value !== id) return; // a new conversation started meanwhile
      messages.value = (h.messages ?? []).map(fromHistory);
    } catch (e) {
      // An unknown or expired session is not an error for the visitor: start afresh.
      if (e instanceof ApiError && e.kind === 'notFound') {
        setSession(null);
        setHandoff(null);
      } else fail(e, () => void loadHistory());
    }
  }

  async function init(): Promise<void> {
    error.value = null;
    try {
      const c = await api.config();
      config.value = { ...DEFAULT_CONFIG, ...c };
      loaded.value = true;
      if (c.initialState === 'expanded') isOpen.value = true;
    } catch (e) {
      fail(e, () => void init());
      return;
    }
    await loadHistory();
    setHandoff(notice.value); // resumes polling after a reload during a handoff
  }

  async function send(text: string, isRetry = false): Promise<void> {
    const message = text.trim();
    if (!message || busy.value) return;
    const key = localKey();
    batch(() => {
      error.value = null;
      busy.value = true;
      if (!isRetry) messages.value = [...messages.value, { key: localKey(), role: 'user', content: message, sources: [] }];
      messages.value = [...messages.value, { key, role: 'assistant', content: '', sources: [], streaming: true }];
    });
    let streamed = '';
    try {
      const sid = sessionId.value;
      const r = await api.chat(sid ? { message, sessionId: sid } : { message }, (delta) => {
        streamed += delta;
        update(key, { content: streamed });
      });
      batch(() => {
        if (r.sessionId) setSession(r.sessionId);
        update(key, {
          // The key stays local: re-keying would remount the node and make screen readers repeat it.
          id: r.messageId,
          content: r.response,
          sources: dedupe(r.sources),
          streaming: false,
          suggestions: r.fallback && Array.isArray(r.suggestions) ? r.suggestions : undefined,
          handoff: r.handoff?.enabled ? r.handoff : null,
        });
      });
    } catch (e) {
      // Drop the half-written answer; the user's message stays and retry re-asks it.
      batch(() => {
        messages.value = messages.value.filter((m) => m.key !== key);
        fail(e, () => void send(message, true));
      });
    } finally {
      busy.value = false;
    }
  }

  /** Sends the composer's text; the draft is kept if nothing could be sent. */
  function submit(): void {
    const text = draft.value;
    if (!text.trim() || busy.value) return;
    draft.value = '';
    void send(text);
  }

  async function rate(msg: Message, rating: 'up' | 'down'): Promise<void> {
    const sid = sessionId.value;
    if (!msg.id || !sid || msg.rating === rating) return;
    const before = msg.rating;
    update(msg.key, { rating });
    try {
      await api.feedback({ sessionId: sid, messageId: msg.id, rating });
    } catch (e) {
      update(msg.key, { rating: before });
      fail(e, () => void rate({ ...msg, rating: before }, rating));
    }
  }

  async function requestHandoff(): Promise<void> {
    const sid = sessionId.value;
    if (!sid || handoffActive.value) return;
    error.value = null;
    try {
      const r = await api.handoff({ sessionId: sid });
      setHandoff(r?.message || '');
    } catch (e) {
      fail(e, () => void requestHandoff());
    }
  }

  /** Picks up human_agent replies that arrived since; our own messages are already shown. */
  async function poll(): Promise<void> {
    const sid = sessionId.value;
    if (!sid || busy.value) return;
    try {
      const h = await api.history(sid);
      if (sid !== sessionId.value || busy.value) return;
      const known = new Set(messages.value.map((m) => m.id));
      const fresh = (h.messages ?? []).filter((m) => m.role === 'human_agent' && !known.has(m.id)).map(fromHistory);
      if (fresh.length) {
        messages.value = [...messages.value, ...fresh];
      }
    } catch {
      // Polling is best effort; the next tick tries again.
    }
  }

  function newConversation(): void {
    batch(() => {
      setSession(null);
      setHandoff(null);
      messages.value = [];
      error.value = null;
    });
  }

  function open(): void {
    isOpen.value = true;
  }

  function close(): void {
    isOpen.value = false;
  }

  return {
    // state
    config,
    loaded,
    isOpen,
    messages,
    busy,
    error,
    sessionId,
    handoffActive,
    notice,
    draft,
    // derived
    suggestions,
    canHandoff,
    // actions
    init,
    send,
    submit,
    rate,
    requestHandoff,
    poll,
    newConversation,
    open,
    close,
  };
}
