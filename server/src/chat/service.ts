import { estimateConfidence } from '../answer/confidence.js';
import type { Passage } from '../answer/extractive.js';
import type { AnswerProvider, AnswerProviders, AnswerRequest, AnswerUsage, HistoryTurn } from '../answer/providers/types.js';
import { answerWithModel } from '../answer/model-answer.js';
import { ProviderError } from '../net/provider-http.js';
import { fillVariables, matchTemplate } from '../answer/templates.js';
import type { UsageRecord } from '../answer/usage.js';
import { contentTerms, truncateAtWord } from '../text/text.js';
import type { Assistant } from '../assistants/service.js';
import type { ConversationStore, Channel, Conversation, Message, NewMessage } from '../conversations/store.js';
import { AppError } from '../http/errors.js';
import { localeFor, messageInLanguage } from '../i18n/locales.js';
import type { Clock } from '../lib/clock.js';
import type { Logger } from '../lib/logger.js';
import type { ChatOutcome, Metrics } from '../metrics/metrics.js';
import { sortableRandom } from '../lib/ids.js';
import type { ChunkSearch } from '../knowledge/embeddings/hybrid.js';
import { chunkUrl, type RetrievedChunk } from '../knowledge/retrieval.js';
import type { Storage, Queryable, Tx } from '../storage/port.js';
import type { WebhookEvents } from '../webhooks/events.js';
import { buildExplain, type Explain } from './explain.js';
import { likelyPages } from './fallback-pages.js';
import { knowledgeTermsOf, recordKnowledgeGap } from './knowledge-gaps.js';

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

export interface ChatSource { title: string; url: string | null }

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

/** Passages given to the answerer; enough to cover a question that spans two sections. */
const PASSAGES_FOR_ANSWER = 6;

/** What answering produced, before the fallback decision. */
interface Generated {
  text: string;
  confidence: number;
  /** Passages the answer rests on (its sources). */
  used: Passage[];
  /** Everything retrieved: suggestions come from these on a fallback. */
  passages: Passage[];
  templateId: string | null;
  usage: AnswerUsage | null;
  record: UsageRecord | null;
  /** Text already streamed live to the client (model answers). */
  live: string;
  /** The model declined, failed or was not worth calling: the fallback, whatever the threshold. */
  forceFallback: boolean;
  providerError: ProviderError | null;
  /** Retrieval's own result and time, for explain. */
  retrieved: RetrievedChunk[];
  retrievalMs: number;
}

const NOT_GENERATED: Omit<Generated, 'text' | 'confidence'> = {
  used: [], passages: [], templateId: null, usage: null, record: null, live: '', forceFallback: false, providerError: null, retrieved: [], retrievalMs: 0,
};
const SOURCE_SNIPPET_CHARS = 300;

export function newSessionId(): string {
  return `sess_${sortableRandom(24)}`;
}

export function createChatService(deps: { storage: Storage; clock: Clock; retriever: ChunkSearch; conversations: ConversationStore; providers: AnswerProviders; webhooks: WebhookEvents; logger?: Logger; metrics?: ChatMetrics }) {
  const { clock, retriever, conversations } = deps;

  /** The session's conversation, if any; a session of another assistant is refused. */
  async function ownConversation(input: ChatInput, q: Queryable = deps.storage): Promise<Conversation | null> {
    if (!input.sessionId) return null;
    const c = await conversations.findBySession(input.assistant.organizationId, input.sessionId, q);
    if (c && c.assistantId !== input.assistant.id) throw new AppError('validation_error', 'sessionId belongs to a conversation with another assistant');
    return c;
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
    const started = await conversations.startWith(tx, {
      organizationId: a.organizationId, assistantId: a.id, sessionId: input.sessionId ?? newSessionId(), channel: input.channel, metadata: input.metadata,
    }, startedAt, turn, at);
    return { conversation: started.conversation, isNew: true, messages: started.messages };
  }

  /**
   * A short follow-up ("and on Windows?") means little alone: when the question has fewer than
   * two content words, the previous user turn joins the retrieval query.
   */
  function retrievalQuery(message: string, history: HistoryTurn[]): string {
    if (contentTerms(message).length >= 2) return message;
    const previous = [...history].reverse().find((h) => h.role === 'user');
    return previous ? `${previous.content} ${message}` : message;
  }

  function toPassages(chunks: RetrievedChunk[]): Passage[] {
    // The best score, not the first: hybrid retrieval lists in fused order (knowledge/embeddings/hybrid.ts).
    const top = chunks.reduce((m, c) => Math.max(m, c.score), 0);
    return chunks.map((c) => ({ id: String(c.chunkId), title: c.page ? `${c.title}, p. ${c.page}` : c.title, url: chunkUrl(c), text: c.text, headingPath: c.headingPath, score: top > 0 ? c.score / top : 0, language: c.language }));
  }

  /** The extractive answerer: the whole text at once, confidence from its sentence coverage. */
  async function answerExtractively(provider: AnswerProvider, request: AnswerRequest, signal: AbortSignal | undefined): Promise<Generated> {
    let text = '';
    let used: string[] | null = null;
    let coverage: number | null = null;
    let usage: AnswerUsage | null = null;
    const p0 = performance.now();
    for await (const event of provider.answer(request, { signal })) {
      if (event.type === 'delta') text += event.text;
      else ({ usedPassageIds: used, coverage, usage } = event);
    }
    const { passages } = request;
    const usedPassages = used ? passages.filter((p) => used?.includes(p.id)) : passages.slice(0, 3);
    const confidence = text ? estimateConfidence(request.question, passages, coverage) : 0;
    const record: UsageRecord = { provider: provider.name, model: null, usage, providerMs: Math.round((performance.now() - p0) * 10) / 10 };
    return { ...NOT_GENERATED, text, confidence, used: usedPassages, passages, usage, record };
  }

  async function generate(input: ChatInput, history: HistoryTurn[]): Promise<Generated> {
    const a = input.assistant;
    const template = matchTemplate(a.templates, input.message, {
      onBudgetSpent: (skipped) => deps.logger?.warn('template matching budget spent', { assistantId: a.id, skipped }),
    });
    if (template) return { ...NOT_GENERATED, text: fillVariables(template.response, a.variables), confidence: 1, templateId: template.id ?? null };
    const r0 = performance.now();
    const chunks = await retriever.retrieve(retrievalQuery(input.message, history), a.knowledgeBases, PASSAGES_FOR_ANSWER);
    const retrievalMs = performance.now() - r0;
    const passages = toPassages(chunks);
    const provider = deps.providers[a.model.provider];
    if (!provider) throw new AppError('validation_error', `The model provider "${a.model.provider}" is not configured on this server`);
    const problem = provider.check?.(a.model);
    if (problem) throw new AppError('validation_error', problem);
    const request: AnswerRequest = {
      question: input.message, passages, history, systemPrompt: a.systemPrompt, variables: { assistant_name: a.name, ...a.variables },
      language: a.language, maxResponseLength: a.maxResponseLength, model: a.model,
    };
    if (provider.name !== 'extractive') {
      // Model answers stream live to onDelta as they arrive (answer/model-answer.ts decides what
      // may). The provider streams even for JSON clients: the timeout then measures silence, not
      // the whole generation, and the cap or a disconnect can stop generation part-way.
      const m = await answerWithModel({ provider, request, threshold: a.confidenceThreshold, signal: input.signal, stream: true, onLive: input.onDelta })
        .catch((err: unknown) => {
          if (err instanceof ProviderError) deps.metrics?.modelRequest(provider.name, err.code);
          throw err instanceof ProviderError && err.code === 'aborted' ? new AppError('validation_error', 'Request aborted') : err;
        });
      if (m.error) deps.logger?.warn('model provider failed', { provider: provider.name, model: a.model.name ?? provider.defaultModel, code: m.error.code, status: m.error.status, error: m.error.message });
      if (m.outcome !== 'skipped') deps.metrics?.modelRequest(provider.name, m.error?.code ?? (m.outcome === 'declined' ? 'declined' : 'answered'));
      const record: UsageRecord | null = m.outcome === 'skipped' ? null : { provider: provider.name, model: a.model.name ?? provider.defaultModel ?? null, usage: m.usage, providerMs: m.providerMs };
      return {
        text: m.text, confidence: m.confidence, used: m.used, passages, templateId: null, usage: m.usage, record, live: m.live,
        forceFallback: m.outcome === 'declined' || m.outcome === 'failed' || m.outcome === 'skipped', providerError: m.error,
        retrieved: chunks, retrievalMs,
      };
    }
    return { ...(await answerExtractively(provider, request, input.signal)), retrieved: chunks, retrievalMs };
  }

  function suggestionsFrom(passages: Passage[]): string[] {
    const seen = new Set<string>();
    for (const p of passages) {
      const topic = p.headingPath.at(-1) ?? p.title;
      if (topic) seen.add(topic);
      if (seen.size === 3) break;
    }
    return [...seen];
  }

  /** The owner's fallback message, or Parley's default in the assistant's language (i18n/locales.ts). */
  const fallbackMessage = (a: Assistant): string => fillVariables(messageInLanguage('fallback', a.fallback.message, a.language), a.variables);

  const service = {
    /**
     * The answer the assistant would give now, through the same path as chat() (templates,
     * retrieval, the model, the threshold), writing nothing: no conversation, gap, usage or
     * webhook. Replays a knowledge gap's questions once it is resolved (analytics/gaps.ts).
     */
    async replay(input: { assistant: Assistant; message: string; signal?: AbortSignal }): Promise<{ response: string; confidence: number; fallback: boolean; templateId: string | null }> {
      const a = input.assistant;
      const generated = await generate({ assistant: a, message: input.message, sessionId: null, metadata: {}, channel: 'api', signal: input.signal }, []);
      const isFallback = generated.forceFallback || generated.confidence < a.confidenceThreshold;
      const response = truncateAtWord(isFallback ? fallbackMessage(a) : generated.text, a.maxResponseLength);
      return { response, confidence: generated.confidence, fallback: isFallback, templateId: generated.templateId };
    },

    async chat(input: ChatInput): Promise<ChatResult> {
      const startedMs = clock.now();
      const startedAt = new Date(startedMs).toISOString();
      const t0 = performance.now();
      // The conversation is read (or planned) first; nothing is written until the answer exists,
      // so a failed answer leaves no half-conversation behind.
      // The extractive answerer reads no history; it only widens a short follow-up's retrieval
      // query. Without that need the session is read once, inside the write (writeTurn checks it).
      const needsHistory = deps.providers[input.assistant.model.provider]?.name !== 'extractive' || contentTerms(input.message).length < 2;
      const existing = needsHistory ? await ownConversation(input) : null;
      const history: HistoryTurn[] = existing ? (await conversations.lastMessages(existing.id, input.assistant.historyLimit)).map((m) => ({ role: m.role, content: m.content })) : [];

      const a = input.assistant;
      const g0 = performance.now();
      const generated = await generate(input, history);
      const generateMs = performance.now() - g0;
      if (deps.metrics && !generated.templateId) observeStages(deps.metrics, generated, generateMs);
      // A model that declined, failed or was not worth calling answers with the fallback whatever the threshold.
      const isFallback = generated.forceFallback || generated.confidence < a.confidenceThreshold;
      const suggestions = isFallback && a.fallback.suggestions ? suggestionsFrom(generated.passages) : [];
      const handoff = isFallback && a.fallback.handoff.enabled
        ? { ...a.fallback.handoff, message: messageInLanguage('handoff', a.fallback.handoff.message, a.language) } : null;
      let response = isFallback ? fallbackMessage(a) : generated.text;
      if (isFallback && input.channel !== 'widget') {
        // API clients get one self-contained text; the widget renders these as chips and a button.
        if (suggestions.length) response += `\n\n${localeFor(a.language).connector.askAbout.replace('{topics}', suggestions.join('; '))}`;
        if (handoff) response += `\n\n${handoff.message}${handoff.url ? ` ${handoff.url}` : ''}${handoff.email ? ` (${handoff.email})` : ''}`;
      }
      response = truncateAtWord(response, a.maxResponseLength);
      const used = isFallback ? [] : generated.used;
      // A fallback still links the pages most likely to hold the answer (issue 26): in `sources`,
      // and in the message's metadata so the widget's history shows them too. They are not
      // citations: analytics count only `used`.
      const linked = isFallback && !generated.templateId ? likelyPages(generated.passages) : [];
      const sources = isFallback ? linked : distinctSources(used);
      const linkedSources = Object.fromEntries(linked.map((p, i) => [String(i + 1), { text: '', url: p.url, score: 0, title: p.title }]));
      const metadataSources = isFallback ? linkedSources : Object.fromEntries(used.map((p, i) => [String(i + 1), {
        text: truncateAtWord(p.text, SOURCE_SNIPPET_CHARS), url: p.url, score: Math.round(p.score * 1000) / 1000, title: p.title,
        chunkId: Number(p.id),
      }]));
      // Analytics count citations per document (analytics/sources.ts): the documents of the cited chunks.
      const documentOf = new Map(generated.retrieved.map((c) => [String(c.chunkId), c.documentId]));
      const citedDocumentIds = [...new Set(used.flatMap((p) => documentOf.get(p.id) ?? []))];
      const record = generated.record;
      const responseMs = Math.round((performance.now() - t0) * 10) / 10;
      const at = new Date(clock.now()).toISOString();
      const explain = input.explain ? buildExplain({
        retrieved: generated.retrieved, confidence: generated.confidence, threshold: a.confidenceThreshold, isFallback, templateId: generated.templateId,
        providerFailed: generated.providerError !== null, declined: generated.forceFallback && generated.record !== null && generated.providerError === null,
        retrievalMs: generated.retrievalMs, generateMs, totalMs: responseMs, record: generated.record, usage: generated.usage,
      }) : null;

      // What the retrieved knowledge holds, for grouping a gap by what it lacks (read outside the transaction).
      const gapKnowledge = isFallback && !generated.templateId ? knowledgeTermsOf(generated.passages, a.language) : undefined;
      // Group-committed with the requests queued before its batch closes; resolves after the commit.
      const written = await deps.storage.tx(async (tx) => {
        // Sent beside the session lock and read (one round trip on PostgreSQL, not one more).
        const listeners = deps.webhooks.chatTurnListeners(tx, a.organizationId);
        const { conversation, isNew, messages } = await writeTurn(tx, input, startedAt, [
          { role: 'user', content: input.message, metadata: Object.keys(input.metadata).length ? input.metadata : null },
          {
            role: 'assistant', content: response, confidence: generated.confidence, answered: !isFallback, responseMs, citedDocumentIds,
            usage: record && { provider: record.provider, model: record.model, promptTokens: record.usage?.promptTokens ?? null, completionTokens: record.usage?.completionTokens ?? null, providerMs: record.providerMs },
            metadata: {
              confidence: generated.confidence, sources: metadataSources,
              ...(isFallback && { fallback: true, ...(suggestions.length && { suggestions }) }),
              ...(generated.templateId && { templateId: generated.templateId }),
              ...(generated.usage && { usage: generated.usage }),
              ...(generated.record && generated.record.provider !== 'extractive' && { model: { provider: generated.record.provider, name: generated.record.model, providerMs: generated.record.providerMs } }),
              // Generic on purpose: the upstream status or reason (refused, timed out, 418…) would let a
              // tenant probe the server's network through model.baseUrl. Details go to the log (above).
              ...(generated.providerError && { providerError: { code: 'provider_error' } }),
              responseMs,
              ...(explain && { explain }),
            },
          },
        ], at);
        const [userMessage, assistantMessage] = messages;
        // A provider outage is not a gap in the knowledge.
        if (isFallback && !generated.templateId && !generated.providerError) {
          await recordKnowledgeGap(tx, {
            organizationId: a.organizationId, assistantId: a.id, question: input.message, confidence: generated.confidence, at,
            cause: gapCause(generated), messageId: (assistantMessage as Message).id, language: a.language, knowledgeHas: gapKnowledge,
          });
        }
        // Webhook events commit with the messages they announce.
        await deps.webhooks.chatTurn(tx, {
          conversation, isNewConversation: isNew, userMessage: userMessage as Message, assistantMessage: assistantMessage as Message,
          metadata: input.metadata, confidence: generated.confidence, sources,
        }, listeners);
        return { conversation, isNew, userMessage, assistantMessage };
        // A turn only adds rows (and counts into rollups): on SQLite the rollup additions of the
        // turns sharing its commit are summed and written once (storage/port.ts: sharesTallies).
      }, { sharesTallies: true });

      if (input.onDelta) {
        // What streamed live is not sent again; the rest (or, with nothing live, all) goes now,
        // after the commit. When the answer became the fallback after live text, `done` carries it.
        const rest = !generated.live ? response : response.startsWith(generated.live) ? response.slice(generated.live.length) : '';
        for (const piece of rest.match(/^\s+|\S+\s*/g) ?? []) input.onDelta(piece);
      }
      deps.metrics?.chatTurn(input.channel, turnOutcome(generated.templateId, isFallback, handoff !== null));
      return {
        response, sessionId: written.conversation.sessionId, confidence: generated.confidence, sources, fallback: isFallback, suggestions, handoff,
        messageId: (written.assistantMessage as { id: string }).id, userMessageId: (written.userMessage as { id: string }).id,
        conversation: written.conversation, isNewConversation: written.isNew, explain,
      };
    },
  };
  // A turn that throws (storage, a provider misconfigured, the client gone) counts as `error`.
  const { metrics } = deps;
  if (!metrics) return service;
  return { ...service, chat: (input: ChatInput) => service.chat(input).catch((err: unknown) => { metrics.chatTurn(input.channel, 'error'); throw err; }) };
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
  if (g.record && g.record.provider !== 'extractive' && g.record.providerMs !== null) metrics.chatStage('model', g.record.providerMs / 1000);
}

export type ChatService = ReturnType<typeof createChatService>;

/** Why a fallback is a knowledge gap (analytics): a model that answered and declined has a usage record; a skipped one has none. */
function gapCause(g: Generated): 'no_passages' | 'low_confidence' | 'declined' {
  if (!g.passages.length) return 'no_passages';
  return g.forceFallback && g.record !== null ? 'declined' : 'low_confidence';
}

function distinctSources(passages: Passage[]): ChatSource[] {
  const seen = new Map<string, ChatSource>();
  for (const p of passages) {
    const key = `${p.title}\u0000${p.url ?? ''}`;
    if (!seen.has(key)) seen.set(key, { title: p.title, url: p.url });
  }
  return [...seen.values()];
}
