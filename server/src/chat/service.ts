import type { AnswerProviders, HistoryTurn } from '../answer/providers/types.js';
import { contentTerms } from '../text/text.js';
import { truncateAtWord } from '../text/truncate.js';
import type { Assistant } from '../assistants/service.js';
import type { ConversationStore, Channel, Conversation, Message, NewMessage } from '../conversations/store.js';
import { AppError } from '../http/errors.js';
import type { Clock } from '../lib/clock.js';
import type { Logger } from '../lib/logger.js';
import type { ChatOutcome, Metrics } from '../metrics/metrics.js';
import { sortableRandom } from '../lib/ids.js';
import type { ChunkSearch } from '../knowledge/embeddings/hybrid.js';
import type { Storage, Queryable, Tx } from '../storage/port.js';
import type { WebhookEvents } from '../webhooks/events.js';
import { buildExplain, type Explain } from './explain.js';
import { generate, type Generated } from './generate.js';
import { knowledgeTermsOf, recordKnowledgeGap } from './knowledge-gaps.js';
import { assistantMessage, decideReply, fallbackMessage, gapCause, isFallbackFor, type ChatSource, type Reply } from './reply.js';

export type { ChatSource } from './reply.js';

export interface ChatInput {
  assistant: Assistant;
  message: string;
  /** Absent → a new conversation with a server-made id. */
  sessionId: string | null;
  metadata: Record<string, unknown>;
  channel: Channel;
  /** Build the "why this answer" object (playground), returned and kept in the message metadata. */
  explain?: boolean | undefined;
  signal?: AbortSignal | undefined;
  /** Called with each piece of the answer as it is produced (SSE). */
  onDelta?: ((text: string) => void) | undefined;
}

export interface ChatResult {
  response: string;
  sessionId: string;
  confidence: number;
  sources: ChatSource[];
  messageId: string;
  userMessageId: string;
  fallback: boolean;
  suggestions: string[];
  handoff: Assistant['fallback']['handoff'] | null;
  conversation: Conversation;
  isNewConversation: boolean;
  /** Present when the input asked for it. */
  explain: Explain | null;
}

export function newSessionId(): string {
  return `sess_${sortableRandom(24)}`;
}

/** Chat turns and replays (see createChatService). */
export interface ChatService {
  /**
   * Answers one message of a conversation and writes the turn (the conversation, both messages,
   * a knowledge gap on a fallback, the webhook events) in one transaction. Nothing is written
   * when answering fails.
   */
  chat(input: ChatInput): Promise<ChatResult>;
  /**
   * The answer the assistant would give now, through the same path as chat() (templates,
   * retrieval, the model, the threshold), writing nothing: no conversation, gap, usage or
   * webhook. Replays a knowledge gap's questions once it is resolved (analytics/gaps.ts).
   */
  replay(input: { assistant: Assistant; message: string; signal?: AbortSignal }): Promise<Replayed>;
}

/** A replayed question's answer (ChatService.replay). */
export interface Replayed {
  response: string;
  confidence: number;
  fallback: boolean;
  templateId: string | null;
}

export interface ChatDeps {
  storage: Storage;
  clock: Clock;
  retriever: ChunkSearch;
  conversations: ConversationStore;
  providers: AnswerProviders;
  webhooks: WebhookEvents;
  logger?: Logger;
  metrics?: ChatMetrics;
}

/** The written turn: the conversation (new or not) and its two new messages. */
interface WrittenTurn {
  conversation: Conversation;
  isNew: boolean;
  userMessage: Message;
  assistantMessage: Message;
}

export function createChatService(deps: ChatDeps): ChatService {
  const { clock, conversations } = deps;

  /** The session's conversation, if any; a session of another assistant is refused. */
  async function ownConversation(input: ChatInput, q: Queryable = deps.storage): Promise<Conversation | null> {
    if (!input.sessionId) return null;
    const c = await conversations.findBySession(input.assistant.organizationId, input.sessionId, q);
    if (c && c.assistantId !== input.assistant.id)
      throw new AppError('validation_error', 'sessionId belongs to a conversation with another assistant');
    return c;
  }

  /**
   * The history a model reads. The extractive answerer reads none; it only widens a short
   * follow-up's retrieval query. Without that need the session is read once, inside the write
   * (writeTurn checks it).
   */
  async function historyOf(input: ChatInput): Promise<HistoryTurn[]> {
    const needsHistory = deps.providers[input.assistant.model.provider]?.name !== 'extractive' || contentTerms(input.message).length < 2;
    const existing = needsHistory ? await ownConversation(input) : null;
    return existing
      ? (await conversations.lastMessages(existing.id, input.assistant.historyLimit)).map((m) => ({ role: m.role, content: m.content }))
      : [];
  }

  /**
   * Writes the turn into the session's conversation, or into a new one started at `startedAt`.
   * Reads the session inside the transaction: a parallel first message may have created it.
   */
  async function writeTurn(tx: Tx, input: ChatInput, startedAt: string, turn: NewMessage[], at: string) {
    // On PostgreSQL two first messages of one session would both read "none" (READ COMMITTED) and
    // the second insert would fail on (organization_id, session_id): a 500. The lock makes the
    // second wait for the first to commit; its read then sees the conversation (Tx.lock: nothing
    // to do on SQLite, whose write transaction holds the whole database).
    // The read is sent right behind the lock (one round trip); PostgreSQL runs it once the lock is held.
    const locked = input.sessionId ? tx.lock(`${input.assistant.organizationId}:${input.sessionId}`) : null;
    const [, existing] = await Promise.all([locked, ownConversation(input, tx)]);
    if (existing) return { conversation: existing, isNew: false, messages: await conversations.append(tx, existing, turn, at) };
    const a = input.assistant;
    const started = await conversations.startWith(
      tx,
      {
        organizationId: a.organizationId,
        assistantId: a.id,
        sessionId: input.sessionId ?? newSessionId(),
        channel: input.channel,
        metadata: input.metadata,
      },
      startedAt,
      turn,
      at,
    );
    return { conversation: started.conversation, isNew: true, messages: started.messages };
  }

  /**
   * The turn's rows, in one transaction: both messages, a knowledge gap on a fallback, the
   * webhook events that announce them. Group-committed with the requests queued before its batch
   * closes; resolves after the commit.
   */
  async function recordTurn(
    input: ChatInput,
    generated: Generated,
    reply: Reply,
    answer: NewMessage,
    times: { startedAt: string; at: string },
  ): Promise<WrittenTurn> {
    const a = input.assistant;
    // What the retrieved knowledge holds, for grouping a gap by what it lacks (read outside the transaction).
    const gapKnowledge = reply.isFallback && !generated.templateId ? knowledgeTermsOf(generated.passages, a.language) : undefined;
    return deps.storage.tx(
      async (tx) => {
        // Sent beside the session lock and read (one round trip on PostgreSQL, not one more).
        const listeners = deps.webhooks.chatTurnListeners(tx, a.organizationId);
        const { conversation, isNew, messages } = await writeTurn(
          tx,
          input,
          times.startedAt,
          [{ role: 'user', content: input.message, metadata: Object.keys(input.metadata).length ? input.metadata : null }, answer],
          times.at,
        );
        const [userMessage, assistantMessage] = messages as [Message, Message];
        // A provider outage is not a gap in the knowledge.
        if (reply.isFallback && !generated.templateId && !generated.providerError) {
          await recordKnowledgeGap(tx, {
            organizationId: a.organizationId,
            assistantId: a.id,
            question: input.message,
            confidence: generated.confidence,
            at: times.at,
            cause: gapCause(generated),
            messageId: assistantMessage.id,
            language: a.language,
            knowledgeHas: gapKnowledge,
          });
        }
        // Webhook events commit with the messages they announce.
        await deps.webhooks.chatTurn(
          tx,
          {
            conversation,
            isNewConversation: isNew,
            userMessage,
            assistantMessage,
            metadata: input.metadata,
            confidence: generated.confidence,
            sources: reply.sources,
          },
          listeners,
        );
        return { conversation, isNew, userMessage, assistantMessage };
        // A turn only adds rows (and counts into rollups): on SQLite the rollup additions of the
        // turns sharing its commit are summed and written once (storage/port.ts: sharesTallies).
      },
      { sharesTallies: true },
    );
  }

  const service: ChatService = {
    async replay(input) {
      const a = input.assistant;
      const generated = await generate(deps, input, []);
      const isFallback = isFallbackFor(a, generated);
      const response = truncateAtWord(isFallback ? fallbackMessage(a) : generated.text, a.maxResponseLength);
      return { response, confidence: generated.confidence, fallback: isFallback, templateId: generated.templateId };
    },

    async chat(input) {
      const startedAt = new Date(clock.now()).toISOString();
      const t0 = performance.now();
      // The conversation is read (or planned) first; nothing is written until the answer exists,
      // so a failed answer leaves no half-conversation behind.
      const history = await historyOf(input);
      const a = input.assistant;
      const g0 = performance.now();
      const generated = await generate(deps, input, history);
      const generateMs = performance.now() - g0;
      if (deps.metrics && !generated.templateId) observeStages(deps.metrics, generated, generateMs);
      const reply = decideReply(a, input.channel, generated);
      const responseMs = Math.round((performance.now() - t0) * 10) / 10;
      const at = new Date(clock.now()).toISOString();
      const explain = input.explain
        ? buildExplain({
            retrieved: generated.retrieved,
            confidence: generated.confidence,
            threshold: a.confidenceThreshold,
            isFallback: reply.isFallback,
            templateId: generated.templateId,
            providerFailed: generated.providerError !== null,
            declined: generated.forceFallback && generated.record !== null && generated.providerError === null,
            retrievalMs: generated.retrievalMs,
            generateMs,
            totalMs: responseMs,
            record: generated.record,
            usage: generated.usage,
          })
        : null;
      const written = await recordTurn(input, generated, reply, assistantMessage(reply, generated, responseMs, explain), { startedAt, at });
      if (input.onDelta) streamRest(input.onDelta, generated.live, reply.response);
      deps.metrics?.chatTurn(input.channel, turnOutcome(generated.templateId, reply.isFallback, reply.handoff !== null));
      return {
        response: reply.response,
        sessionId: written.conversation.sessionId,
        confidence: generated.confidence,
        sources: reply.sources,
        fallback: reply.isFallback,
        suggestions: reply.suggestions,
        handoff: reply.handoff,
        messageId: written.assistantMessage.id,
        userMessageId: written.userMessage.id,
        conversation: written.conversation,
        isNewConversation: written.isNew,
        explain,
      };
    },
  };
  // A turn that throws (storage, a provider misconfigured, the client gone) counts as `error`.
  const { metrics } = deps;
  if (!metrics) return service;
  return {
    ...service,
    chat: (input: ChatInput) =>
      service.chat(input).catch((err: unknown) => {
        metrics.chatTurn(input.channel, 'error');
        throw err;
      }),
  };
}

/**
 * Sends what did not stream live, after the commit: the rest of the answer, or all of it when
 * nothing streamed. When the answer became the fallback after live text, `done` carries it.
 */
function streamRest(onDelta: (text: string) => void, live: string, response: string): void {
  const rest = !live ? response : response.startsWith(live) ? response.slice(live.length) : '';
  for (const piece of rest.match(/^\s+|\S+\s*/g) ?? []) onDelta(piece);
}

type ChatMetrics = Pick<Metrics, 'chatTurn' | 'chatStage' | 'modelRequest'>;

/** How a turn ended (parley_chat_turns_total): a fallback that offered a human is `handoff`. */
function turnOutcome(templateId: string | null, isFallback: boolean, offeredHandoff: boolean): ChatOutcome {
  if (templateId) return 'template';
  if (!isFallback) return 'answered';
  return offeredHandoff ? 'handoff' : 'fallback';
}

/** Stage times (parley_chat_stage_duration_seconds): retrieval, the answering step after it, the model request. */
function observeStages(metrics: ChatMetrics, g: Generated, generateMs: number): void {
  metrics.chatStage('retrieval', g.retrievalMs / 1000);
  metrics.chatStage('answer', Math.max(0, generateMs - g.retrievalMs) / 1000);
  if (g.record && g.record.provider !== 'extractive' && g.record.providerMs !== null)
    metrics.chatStage('model', g.record.providerMs / 1000);
}
