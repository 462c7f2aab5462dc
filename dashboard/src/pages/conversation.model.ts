import { signal, type Signal } from '@preact/signals';
import type { ApiClient } from '../lib/api.js';
import { loadable, submission, type Loadable, type Submission } from '../lib/model.js';

// One conversation for an agent: the transcript with what stood behind each answer, a human
// reply, ending it, and "Correct this answer" (a template and/or a knowledge snippet).

export interface Source {
  text: string;
  url: string | null;
  score: number;
  title?: string | null;
  chunkId?: number;
}

export interface Turn {
  id: string;
  role: 'user' | 'assistant' | 'human_agent';
  content: string;
  timestamp: string;
  metadata: Record<string, unknown> | null;
  confidence?: number | null;
  fellBack?: boolean;
  templateId?: string | null;
  responseMs?: number | null;
  rating?: 'up' | 'down' | null;
  ratingComment?: string | null;
  sources?: Source[];
}

export interface Correction {
  id: string;
  assistantId?: string;
  messageId: string;
  question: string;
  answer: string;
  templateId: string | null;
  knowledgeBaseId: string | null;
  documentId: string | null;
  userId?: string | null;
  createdAt: string;
}

export interface ConversationDetail {
  sessionId: string;
  assistantId: string;
  channel: string;
  userId: string | null;
  source: string | null;
  metadata: Record<string, unknown>;
  status: 'active' | 'ended';
  startedAt: string;
  lastMessageAt: string;
  endedAt: string | null;
  handoffRequestedAt: string | null;
  threshold: number | null;
  messages: Turn[];
  corrections: Correction[];
}

export interface CorrectionDraft {
  answer: string;
  asTemplate: boolean;
  match: 'exact' | 'contains';
  asSnippet: boolean;
  knowledgeBaseId: string;
}

/** The question an assistant turn answered: the user turn just before it. */
export function questionBefore(messages: readonly Turn[], messageId: string): string | null {
  const i = messages.findIndex((m) => m.id === messageId);
  for (let j = i - 1; j >= 0; j--) if (messages[j]!.role === 'user') return messages[j]!.content;
  return null;
}

/** One conversation: its messages, a human reply, ending it, and correcting an answer. */
export interface ConversationModel {
  sessionId: string;
  /** The conversation and its messages. */
  detail: Loadable<ConversationDetail>;
  /** The assistant's name for the header (the id stays shown if it cannot be read). */
  assistantName: Signal<string | null>;
  /** The knowledge bases (first 100) a correction may add a snippet to. */
  knowledgeBases: Loadable<{ id: string; name: string }[]>;
  reply: Submission;
  /** The human reply being typed. */
  replyText: Signal<string>;
  ending: Submission;
  correcting: Submission;
  /** The assistant turn being corrected (the dialog is open while set) and what the user typed. */
  correctionFor: Signal<Turn | null>;
  /** The correction being written: the answer, and whether it becomes a template, a snippet or both. */
  draft: Signal<CorrectionDraft>;
  /** The correction saved last. */
  lastCorrection: Signal<Correction | null>;
  /** Loads the conversation, then the assistant's name once. */
  load(): Promise<void>;
  /** Sends the reply as a human agent; the text stays in the box when it fails. */
  sendReply(): Promise<boolean>;
  /** Ends the conversation; true when done. */
  end(): Promise<boolean>;
  /** Opens the correction dialog for an assistant turn, its answer as the draft. */
  openCorrection(turn: Turn): void;
  closeCorrection(): void;
  /** Saves the correction (POST /corrections) and reloads the conversation. */
  saveCorrection(): Promise<Correction | undefined>;
}

export function createConversationModel(api: ApiClient, sessionId: string): ConversationModel {
  const path = `/conversations/${encodeURIComponent(sessionId)}`;
  const detail = loadable(() => api.get<ConversationDetail>(path));
  /** The assistant's name for the header (the id stays shown if it cannot be read). */
  const assistantName = signal<string | null>(null);
  const knowledgeBases = loadable(async () => (await api.page<{ id: string; name: string }>('/knowledge-bases', { limit: 100 })).items);
  const reply = submission();
  const replyText = signal('');
  const ending = submission();
  const correcting = submission();
  /** The assistant turn being corrected (the dialog is open while set) and what the user typed. */
  const correctionFor = signal<Turn | null>(null);
  const draft = signal<CorrectionDraft>({ answer: '', asTemplate: true, match: 'exact', asSnippet: false, knowledgeBaseId: '' });
  const lastCorrection = signal<Correction | null>(null);

  return {
    sessionId,
    detail,
    assistantName,
    knowledgeBases,
    reply,
    replyText,
    ending,
    correcting,
    correctionFor,
    draft,
    lastCorrection,
    async load() {
      await detail.load();
      const id = detail.data.value?.assistantId;
      if (id && assistantName.value === null) {
        assistantName.value = await api.get<{ name: string }>(`/assistants/${encodeURIComponent(id)}`).then(
          (a) => a.name,
          () => null,
        );
      }
    },
    async sendReply(): Promise<boolean> {
      const content = replyText.value.trim();
      if (!content) return false;
      const sent = await reply.run(() => api.post(`${path}/messages`, { content }));
      if (sent === undefined) return false; // the text stays in the box
      replyText.value = '';
      await detail.load();
      return true;
    },
    async end(): Promise<boolean> {
      const ok = await ending.run(() => api.post(`${path}/end`));
      if (ok !== undefined) await detail.load();
      return ok !== undefined;
    },
    openCorrection(turn: Turn) {
      correctionFor.value = turn;
      correcting.error.value = null;
      correcting.saved.value = false;
      lastCorrection.value = null;
      draft.value = { ...draft.value, answer: turn.content };
      if (!knowledgeBases.data.value)
        void knowledgeBases.load().then(() => {
          if (!draft.value.knowledgeBaseId) draft.value = { ...draft.value, knowledgeBaseId: knowledgeBases.data.value?.[0]?.id ?? '' };
        });
    },
    closeCorrection() {
      correctionFor.value = null;
    },
    async saveCorrection(): Promise<Correction | undefined> {
      const turn = correctionFor.value;
      if (!turn) return undefined;
      const d = draft.value;
      const created = await correcting.run(() =>
        api.post<Correction>('/corrections', {
          sessionId,
          messageId: turn.id,
          answer: d.answer,
          ...(d.asTemplate && { asTemplate: { match: d.match } }),
          ...(d.asSnippet && { asSnippet: { knowledgeBaseId: d.knowledgeBaseId } }),
        }),
      );
      if (created) {
        lastCorrection.value = created;
        await detail.load();
      }
      return created;
    },
  };
}
