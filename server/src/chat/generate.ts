import { estimateConfidence } from '../answer/confidence.js';
import type { Passage } from '../answer/extractive.js';
import { answerWithModel } from '../answer/model-answer.js';
import type { AnswerProvider, AnswerProviders, AnswerRequest, AnswerUsage, HistoryTurn } from '../answer/providers/types.js';
import { fillVariables, matchTemplate } from '../answer/templates.js';
import type { UsageRecord } from '../answer/usage.js';
import type { Assistant } from '../assistants/service.js';
import { AppError } from '../http/errors.js';
import type { ChunkSearch } from '../knowledge/embeddings/hybrid.js';
import type { RetrievedChunk } from '../knowledge/retrieval.js';
import type { Logger } from '../lib/logger.js';
import type { Metrics } from '../metrics/metrics.js';
import { ProviderError } from '../net/provider-http.js';
import { contentTerms } from '../text/text.js';
import { toPassages } from './passages.js';

/** Passages given to the answerer; enough to cover a question that spans two sections. */
const PASSAGES_FOR_ANSWER = 6;

/** What answering produced, before the fallback decision. */
export interface Generated {
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
  used: [],
  passages: [],
  templateId: null,
  usage: null,
  record: null,
  live: '',
  forceFallback: false,
  providerError: null,
  retrieved: [],
  retrievalMs: 0,
};

/** A question to answer: a chat turn's, or a replayed one's. */
export interface Question {
  assistant: Assistant;
  message: string;
  signal?: AbortSignal | undefined;
  /** Called with each piece of a model answer as it streams (SSE). */
  onDelta?: ((text: string) => void) | undefined;
}

export interface GenerateDeps {
  retriever: ChunkSearch;
  providers: AnswerProviders;
  logger?: Logger | undefined;
  metrics?: Pick<Metrics, 'modelRequest'> | undefined;
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

/**
 * A model's answer. It streams live to onDelta as it arrives (answer/model-answer.ts decides
 * what may). The provider streams even for JSON clients: the timeout then measures silence, not
 * the whole generation, and the cap or a disconnect can stop generation part-way.
 */
async function answerWithProvider(deps: GenerateDeps, provider: AnswerProvider, request: AnswerRequest, q: Question): Promise<Generated> {
  const a = q.assistant;
  const m = await answerWithModel({
    provider,
    request,
    threshold: a.confidenceThreshold,
    signal: q.signal,
    stream: true,
    onLive: q.onDelta,
  }).catch((err: unknown) => {
    if (err instanceof ProviderError) deps.metrics?.modelRequest(provider.name, err.code);
    throw err instanceof ProviderError && err.code === 'aborted' ? new AppError('validation_error', 'Request aborted') : err;
  });
  if (m.error)
    deps.logger?.warn('model provider failed', {
      provider: provider.name,
      model: a.model.name ?? provider.defaultModel,
      code: m.error.code,
      status: m.error.status,
      error: m.error.message,
    });
  if (m.outcome !== 'skipped')
    deps.metrics?.modelRequest(provider.name, m.error?.code ?? (m.outcome === 'declined' ? 'declined' : 'answered'));
  const record: UsageRecord | null =
    m.outcome === 'skipped'
      ? null
      : { provider: provider.name, model: a.model.name ?? provider.defaultModel ?? null, usage: m.usage, providerMs: m.providerMs };
  return {
    ...NOT_GENERATED,
    text: m.text,
    confidence: m.confidence,
    used: m.used,
    passages: request.passages,
    usage: m.usage,
    record,
    live: m.live,
    forceFallback: m.outcome === 'declined' || m.outcome === 'failed' || m.outcome === 'skipped',
    providerError: m.error,
  };
}

/** The assistant's provider for this server, refused (400) when it is not configured or cannot serve the model settings. */
function providerFor(providers: AnswerProviders, a: Assistant): AnswerProvider {
  const provider = providers[a.model.provider];
  if (!provider) throw new AppError('validation_error', `The model provider "${a.model.provider}" is not configured on this server`);
  const problem = provider.check?.(a.model);
  if (problem) throw new AppError('validation_error', problem);
  return provider;
}

/**
 * Answers a question: a matching template, else retrieval and the assistant's answerer (the
 * extractive one, or a model). Writes nothing; the caller decides between answer and fallback.
 */
export async function generate(deps: GenerateDeps, q: Question, history: HistoryTurn[]): Promise<Generated> {
  const a = q.assistant;
  const template = matchTemplate(a.templates, q.message, {
    onBudgetSpent: (skipped) => deps.logger?.warn('template matching budget spent', { assistantId: a.id, skipped }),
  });
  if (template)
    return { ...NOT_GENERATED, text: fillVariables(template.response, a.variables), confidence: 1, templateId: template.id ?? null };
  const r0 = performance.now();
  const chunks = await deps.retriever.retrieve(retrievalQuery(q.message, history), a.knowledgeBases, PASSAGES_FOR_ANSWER);
  const retrievalMs = performance.now() - r0;
  const provider = providerFor(deps.providers, a);
  const request: AnswerRequest = {
    question: q.message,
    passages: toPassages(chunks),
    history,
    systemPrompt: a.systemPrompt,
    variables: { assistant_name: a.name, ...a.variables },
    language: a.language,
    maxResponseLength: a.maxResponseLength,
    model: a.model,
  };
  const generated =
    provider.name === 'extractive'
      ? await answerExtractively(provider, request, q.signal)
      : await answerWithProvider(deps, provider, request, q);
  return { ...generated, retrieved: chunks, retrievalMs };
}
