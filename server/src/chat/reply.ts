import type { Passage } from '../answer/extractive.js';
import { fillVariables } from '../answer/templates.js';
import type { Assistant } from '../assistants/service.js';
import type { Channel, NewMessage } from '../conversations/store.js';
import { localeFor, messageInLanguage } from '../i18n/locales.js';
import { truncateAtWord } from '../text/truncate.js';
import type { Explain } from './explain.js';
import { likelyPages } from './fallback-pages.js';
import type { Generated } from './generate.js';

export interface ChatSource {
  title: string;
  url: string | null;
}

/** A source as the message's metadata keeps it (the widget's history shows them). */
interface SourceRecord {
  text: string;
  url: string | null;
  score: number;
  title: string;
  chunkId?: number;
}

const SOURCE_SNIPPET_CHARS = 300;

/** What a turn answers, decided from what was generated: the answer, or the fallback and what comes with it. */
export interface Reply {
  /** A model that declined, failed or was not worth calling, or a confidence under the threshold. */
  isFallback: boolean;
  /** The text sent, within the assistant's maxResponseLength. */
  response: string;
  /** Topics offered on a fallback (when the assistant offers them). */
  suggestions: string[];
  /** The way to a person offered on a fallback (when enabled), its message in the assistant's language. */
  handoff: Assistant['fallback']['handoff'] | null;
  /** Passages the answer cites: none on a fallback. */
  used: Passage[];
  /** `sources` of the response: the cited pages, or on a fallback the pages most likely to hold the answer. */
  sources: ChatSource[];
  /** The sources as the message's metadata keeps them, numbered from 1. */
  metadataSources: Record<string, SourceRecord>;
  /** The documents of the cited chunks (analytics count citations per document: analytics/sources.ts). */
  citedDocumentIds: string[];
}

/** The owner's fallback message, or Parley's default in the assistant's language (i18n/locales.ts). */
export const fallbackMessage = (a: Assistant): string =>
  fillVariables(messageInLanguage('fallback', a.fallback.message, a.language), a.variables);

/** Whether the generated answer gives way to the fallback. */
export const isFallbackFor = (a: Assistant, g: Generated): boolean => g.forceFallback || g.confidence < a.confidenceThreshold;

function suggestionsFrom(passages: Passage[]): string[] {
  const seen = new Set<string>();
  for (const p of passages) {
    const topic = p.headingPath.at(-1) ?? p.title;
    if (topic) seen.add(topic);
    if (seen.size === 3) break;
  }
  return [...seen];
}

function distinctSources(passages: Passage[]): ChatSource[] {
  const seen = new Map<string, ChatSource>();
  for (const p of passages) {
    const key = `${p.title}\u0000${p.url ?? ''}`;
    if (!seen.has(key)) seen.set(key, { title: p.title, url: p.url });
  }
  return [...seen.values()];
}

/** The fallback's text: API clients get one self-contained text; the widget renders suggestions as chips and the handoff as a button. */
function fallbackText(a: Assistant, channel: Channel, suggestions: string[], handoff: Reply['handoff']): string {
  let response = fallbackMessage(a);
  if (channel === 'widget') return response;
  if (suggestions.length) response += `\n\n${localeFor(a.language).connector.askAbout.replace('{topics}', suggestions.join('; '))}`;
  if (handoff) response += `\n\n${handoff.message}${handoff.url ? ` ${handoff.url}` : ''}${handoff.email ? ` (${handoff.email})` : ''}`;
  return response;
}

/** Decides what the turn answers on `channel` from what was generated. */
export function decideReply(a: Assistant, channel: Channel, generated: Generated): Reply {
  const isFallback = isFallbackFor(a, generated);
  const suggestions = isFallback && a.fallback.suggestions ? suggestionsFrom(generated.passages) : [];
  const handoff =
    isFallback && a.fallback.handoff.enabled
      ? { ...a.fallback.handoff, message: messageInLanguage('handoff', a.fallback.handoff.message, a.language) }
      : null;
  const response = truncateAtWord(isFallback ? fallbackText(a, channel, suggestions, handoff) : generated.text, a.maxResponseLength);
  const used = isFallback ? [] : generated.used;
  // A fallback still links the pages most likely to hold the answer (issue 26): in `sources`,
  // and in the message's metadata so the widget's history shows them too. They are not
  // citations: analytics count only `used`.
  const linked = isFallback && !generated.templateId ? likelyPages(generated.passages) : [];
  const metadataSources: Record<string, SourceRecord> = isFallback
    ? Object.fromEntries(linked.map((p, i) => [String(i + 1), { text: '', url: p.url, score: 0, title: p.title }]))
    : Object.fromEntries(
        used.map((p, i) => [
          String(i + 1),
          {
            text: truncateAtWord(p.text, SOURCE_SNIPPET_CHARS),
            url: p.url,
            score: Math.round(p.score * 1000) / 1000,
            title: p.title,
            chunkId: Number(p.id),
          },
        ]),
      );
  const documentOf = new Map(generated.retrieved.map((c) => [String(c.chunkId), c.documentId]));
  return {
    isFallback,
    response,
    suggestions,
    handoff,
    used,
    sources: isFallback ? linked : distinctSources(used),
    metadataSources,
    citedDocumentIds: [...new Set(used.flatMap((p) => documentOf.get(p.id) ?? []))],
  };
}

/** The assistant's message of the turn, as stored: the reply, its usage and what the conversation view and analytics read. */
export function assistantMessage(reply: Reply, generated: Generated, responseMs: number, explain: Explain | null): NewMessage {
  const { record } = generated;
  return {
    role: 'assistant',
    content: reply.response,
    confidence: generated.confidence,
    answered: !reply.isFallback,
    responseMs,
    citedDocumentIds: reply.citedDocumentIds,
    usage: record && {
      provider: record.provider,
      model: record.model,
      promptTokens: record.usage?.promptTokens ?? null,
      completionTokens: record.usage?.completionTokens ?? null,
      providerMs: record.providerMs,
    },
    metadata: {
      confidence: generated.confidence,
      sources: reply.metadataSources,
      ...(reply.isFallback && { fallback: true, ...(reply.suggestions.length && { suggestions: reply.suggestions }) }),
      ...(generated.templateId && { templateId: generated.templateId }),
      ...(generated.usage && { usage: generated.usage }),
      ...(record &&
        record.provider !== 'extractive' && { model: { provider: record.provider, name: record.model, providerMs: record.providerMs } }),
      // Generic on purpose: the upstream status or reason (refused, timed out, 418…) would let a
      // tenant probe the server's network through model.baseUrl. Details go to the log (generate.ts).
      ...(generated.providerError && { providerError: { code: 'provider_error' } }),
      responseMs,
      ...(explain && { explain }),
    },
  };
}

/** Why a fallback is a knowledge gap (analytics): a model that answered and declined has a usage record; a skipped one has none. */
export function gapCause(g: Generated): 'no_passages' | 'low_confidence' | 'declined' {
  if (!g.passages.length) return 'no_passages';
  return g.forceFallback && g.record !== null ? 'declined' : 'low_confidence';
}
