/**
 * The libraries Parley's retrieval is compared with, indexing the same paragraphs (title +
 * text) in process. Each engine answers a question with paragraph indexes, best first.
 *
 * - MiniSearch 7: its defaults (lowercased words, no stopwords, BM25+, OR of terms, no prefix
 *   or fuzzy matching) with the title boosted 2× as Parley's BM25 weights it. MiniSearch ships
 *   no stemmer; a second variant plugs Parley's own Porter stemmer and stopword list into
 *   `processTerm`, to separate ranking from text analysis.
 * - Orama 3: its defaults plus its built-in English stemmer (`tokenizer.stemming: true`, no
 *   network needed), BM25, title boost 2×, default threshold 1 (documents matching any term).
 *   Orama has no stopword list by default (its lists live in @orama/stopwords, not installed);
 *   a second variant gives it Parley's, since question words ("what", "the") otherwise dominate
 *   its ranking.
 */
import MiniSearch from 'minisearch';
import { create, insertMultiple, search, type Results } from '@orama/orama';
import { STOPWORDS } from '../../../server/src/text/english.js';
import { stem } from '../../../server/src/text/tokens.js';
import type { FlatParagraph } from './squad.js';

/**
 * `query` is the only part timed (the library's own search call); `ids` turns its result into
 * paragraph indexes afterwards.
 */
export interface Engine<R = unknown> {
  name: string;
  /** What was configured, for the report. */
  setup: string;
  /** Parley's retriever answers with a promise (the async storage port); the libraries do not. */
  query(question: string, limit: number): R | Promise<R>;
  ids(result: R, limit: number): number[];
}

export function miniSearchEngine(
  paragraphs: readonly FlatParagraph[],
  variant: 'default' | 'porter' = 'default',
): Engine<{ id: unknown }[]> {
  const porter = variant === 'porter';
  const mini = new MiniSearch<{ id: number; title: string; text: string }>({
    fields: ['title', 'text'],
    ...(porter && { processTerm: (term: string) => (STOPWORDS.has(term.toLowerCase()) ? null : stem(term)) }),
    searchOptions: { boost: { title: 2 } },
  });
  mini.addAll(paragraphs.map((p) => ({ id: p.index, title: p.title, text: p.context })));
  return {
    name: porter ? 'MiniSearch + Porter' : 'MiniSearch',
    setup: porter
      ? "MiniSearch 7 defaults, title boost 2, processTerm = Parley's stopwords + Porter stemmer"
      : 'MiniSearch 7 defaults (it has no stemmer), title boost 2',
    query: (question) => mini.search(question),
    ids: (hits, limit) => hits.slice(0, limit).map((r) => r.id as number),
  };
}

export function oramaEngine(
  paragraphs: readonly FlatParagraph[],
  variant: 'default' | 'stopwords' = 'default',
): Engine<Results<{ id: string }>> {
  const stopwords = variant === 'stopwords';
  const db = create({
    schema: { title: 'string', text: 'string' } as const,
    components: { tokenizer: { stemming: true, language: 'english', ...(stopwords && { stopWords: [...STOPWORDS] }) } },
  });
  const inserted = insertMultiple(
    db,
    paragraphs.map((p) => ({ id: String(p.index), title: p.title, text: p.context })),
  );
  if (inserted instanceof Promise) throw new Error('Orama insert went async: the comparison assumes the synchronous default components');
  return {
    name: stopwords ? 'Orama + stopwords' : 'Orama',
    setup: stopwords
      ? "Orama 3 defaults + its English stemmer + Parley's stopword list, title boost 2"
      : 'Orama 3 defaults + its built-in English stemmer (tokenizer.stemming), title boost 2',
    query(question, limit) {
      const res = search(db, { term: question, properties: ['title', 'text'], boost: { title: 2 }, limit });
      if (res instanceof Promise) throw new Error('Orama search went async');
      return res as unknown as Results<{ id: string }>;
    },
    ids: (res, limit) => res.hits.slice(0, limit).map((h) => Number(h.id)),
  };
}
