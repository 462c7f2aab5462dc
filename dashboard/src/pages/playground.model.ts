import { signal, type Signal } from '@preact/signals';
import { createSseParser, type SseEvent } from '../../../server/src/lib/sse-parse.js';
import type { ApiClient } from '../lib/api.js';
import { ApiError } from '../lib/api.js';
import { asApiError, loadable, type Loadable } from '../lib/model.js';
import type { Assistant } from './assistants.types.js';

// The playground: chat with any assistant through the real chat path (POST
// /v1/integrations/:id/chat, streamed), marked as the playground so analytics leave it out,
// with the server's "why this answer" (`explain`) under each answer.

export interface Explain {
  passages: Array<{
    chunkId: string;
    documentId: string;
    title: string;
    url: string | null;
    heading: string | null;
    text: string;
    score: number;
  }>;
  confidence: number;
  threshold: number;
  outcome: 'answered' | 'fallback' | 'template';
  reason: string | null;
  templateId: string | null;
  timings: { retrievalMs: number; answerMs: number; totalMs: number };
  usage: { provider: string; model: string | null; promptTokens: number | null; completionTokens: number | null } | null;
}

export interface ChatDone {
  response: string;
  sessionId: string;
  confidence: number;
  sources: Array<{ title: string; url: string | null }>;
  messageId?: string;
  explain?: Explain;
}

export interface Turn {
  id: number;
  role: 'user' | 'assistant';
  text: string;
  streaming?: boolean;
  done?: ChatDone;
  error?: string;
}

export type { SseEvent };

/** An SSE byte stream as events (lib/sse-parse.ts, the parser the server and the widget use). */
export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = createSseParser();
  for (;;) {
    const { value, done } = await reader.read();
    yield* parser.feed(done ? decoder.decode() : decoder.decode(value, { stream: true }));
    if (done) {
      parser.end();
      return;
    }
  }
}

/** The playground: a conversation with one of the organization's assistants, answers streamed with their `explain`. */
export interface PlaygroundModel {
  /** The assistants to choose from. */
  assistants: Loadable<Assistant[]>;
  /** The chosen assistant's id. */
  assistantId: Signal<string | null>;
  /** The chosen assistant, once the list is loaded. */
  selected(): Assistant | null;
  /** The conversation so far, oldest first. */
  turns: Signal<Turn[]>;
  /** The conversation's session once the first answer came; null for a new one. */
  sessionId: Signal<string | null>;
  /** The question being typed. */
  draft: Signal<string>;
  /** An answer is streaming. */
  busy: Signal<boolean>;
  /** Why the last question failed, if it did. */
  error: Signal<ApiError | null>;
  /** Loads the assistants and chooses the first when none (or a missing one) is chosen. */
  load(): Promise<void>;
  /** Switches to another assistant, in a new conversation. */
  choose(id: string): void;
  /** Forgets the conversation (an answer streaming is aborted). */
  newConversation(): void;
  /** Sends the draft; the answer streams into its turn, ending with the full body and `explain`. */
  send(text?: string): Promise<void>;
}

export function createPlaygroundModel(api: ApiClient, initialId: string | null): PlaygroundModel {
  const assistants = loadable(async () => (await api.page<Assistant>('/assistants', { limit: 100 })).items);
  const assistantId = signal<string | null>(initialId);
  const turns = signal<Turn[]>([]);
  const sessionId = signal<string | null>(null);
  const draft = signal('');
  const busy = signal(false);
  const error = signal<ApiError | null>(null);
  let nextId = 1;
  let abort: AbortController | null = null;

  const selected = () => assistants.data.value?.find((a) => a.id === assistantId.value) ?? null;

  async function load(): Promise<void> {
    await assistants.load();
    const list = assistants.data.value ?? [];
    if (!assistantId.value || !list.some((a) => a.id === assistantId.value)) assistantId.value = list[0]?.id ?? assistantId.value;
  }

  function newConversation(): void {
    abort?.abort();
    turns.value = [];
    sessionId.value = null;
    error.value = null;
    busy.value = false;
  }

  function choose(id: string): void {
    if (id === assistantId.value) return;
    assistantId.value = id;
    newConversation();
  }

  const update = (id: number, change: Partial<Turn>) => {
    turns.value = turns.value.map((t) => (t.id === id ? { ...t, ...change } : t));
  };

  /** Sends the draft; the answer streams into its turn, ending with the full body and `explain`. */
  async function send(text = draft.value): Promise<void> {
    const message = text.trim();
    const id = assistantId.value;
    if (!message || !id || busy.value) return;
    busy.value = true;
    error.value = null;
    draft.value = '';
    const answerId = nextId + 1;
    turns.value = [
      ...turns.value,
      { id: nextId, role: 'user', text: message },
      { id: answerId, role: 'assistant', text: '', streaming: true },
    ];
    nextId += 2;
    abort = new AbortController();
    try {
      const res = await api.request('POST', `/integrations/${id}/chat`, {
        body: {
          message,
          ...(sessionId.value ? { sessionId: sessionId.value } : {}),
          stream: true,
          explain: true,
          metadata: { source: 'playground' },
        },
        signal: abort.signal,
      });
      if (!res.body) throw new ApiError('server', 'The server sent no answer');
      let text = '';
      let finished = false;
      for await (const ev of readSse(res.body)) {
        if (ev.event === 'delta') {
          text += (JSON.parse(ev.data) as { text: string }).text;
          update(answerId, { text });
        } else if (ev.event === 'done') {
          const done = JSON.parse(ev.data) as ChatDone;
          sessionId.value = done.sessionId;
          update(answerId, { text: done.response, done, streaming: false });
          finished = true;
        } else if (ev.event === 'error') {
          const body = JSON.parse(ev.data) as { error?: { message?: string } };
          throw new ApiError('server', body.error?.message ?? 'The answer failed');
        }
      }
      if (!finished) throw new ApiError('network', 'The answer stopped before it was complete. Try again.');
    } catch (err) {
      if ((err as Error).name === 'AbortError') return;
      const e = asApiError(err);
      update(answerId, { streaming: false, error: e.message });
      error.value = e;
      // The question stays in the box so the user can send it again.
      if (!draft.value) draft.value = message;
    } finally {
      busy.value = false;
    }
  }

  return { assistants, assistantId, selected, turns, sessionId, draft, busy, error, load, choose, newConversation, send };
}
