import type { AnswerUsage } from '../answer/providers/types.js';
import type { UsageRecord } from '../answer/usage.js';
import { chunkUrl, type RetrievedChunk } from '../knowledge/retrieval.js';

/** One retrieved passage as the playground shows it. `score` is relative: 1 = the best passage of this question. */
export interface ExplainPassage {
  chunkId: string;
  documentId: string;
  title: string;
  url: string | null;
  heading: string | null;
  text: string;
  score: number;
}

/**
 * "Why this answer" (the dashboard playground): everything retrieved, the confidence against
 * the threshold, what decided the outcome, where the time went and the model's usage. Asked
 * for with `explain: true`; kept in the assistant message's `metadata.explain` as well.
 */
export interface Explain {
  passages: ExplainPassage[];
  confidence: number;
  threshold: number;
  outcome: 'answered' | 'fallback' | 'template';
  /** Why it is a fallback or a template answer; null when answered. */
  reason: string | null;
  templateId: string | null;
  timings: { retrievalMs: number; answerMs: number; totalMs: number };
  usage: { provider: string; model: string | null; promptTokens: number | null; completionTokens: number | null } | null;
}

/** What the chat service knows once it has answered. */
export interface ExplainInput {
  retrieved: readonly RetrievedChunk[];
  confidence: number;
  threshold: number;
  isFallback: boolean;
  templateId: string | null;
  providerFailed: boolean;
  /** The model was called and declined (NO_ANSWER or an apology). */
  declined: boolean;
  retrievalMs: number;
  generateMs: number;
  totalMs: number;
  record: UsageRecord | null;
  usage: AnswerUsage | null;
}

const round1 = (ms: number): number => Math.round(ms * 10) / 10;

function reasonFor(e: ExplainInput): string | null {
  if (e.templateId !== null) return `template ${e.templateId}`;
  if (!e.isFallback) return null;
  if (e.providerFailed) return 'provider error';
  if (!e.retrieved.length) return 'no passages';
  if (e.declined) return 'model declined';
  return 'below threshold';
}

export function buildExplain(e: ExplainInput): Explain {
  const top = e.retrieved.reduce((m, c) => Math.max(m, c.score), 0);
  return {
    passages: e.retrieved.map((c) => ({
      chunkId: String(c.chunkId),
      documentId: c.documentId,
      title: c.title,
      url: chunkUrl(c),
      heading: c.headingPath.length ? c.headingPath.join(' › ') : null,
      text: c.text,
      score: top > 0 ? Math.round((c.score / top) * 1000) / 1000 : 0,
    })),
    confidence: e.confidence,
    threshold: e.threshold,
    outcome: e.templateId !== null ? 'template' : e.isFallback ? 'fallback' : 'answered',
    reason: reasonFor(e),
    templateId: e.templateId,
    timings: {
      retrievalMs: round1(e.retrievalMs),
      answerMs: round1(Math.max(0, e.generateMs - e.retrievalMs)),
      totalMs: round1(e.totalMs),
    },
    // The extractive answerer has no model and no tokens: null, as for a template.
    usage:
      e.record && e.record.provider !== 'extractive'
        ? {
            provider: e.record.provider,
            model: e.record.model,
            promptTokens: e.usage?.promptTokens ?? null,
            completionTokens: e.usage?.completionTokens ?? null,
          }
        : null,
  };
}
