import { englishQueryWords } from '../text/english.js';
import type { ChunkRow } from './full-text.js';

/** A knowledge base a question searches, with its priority (1..10, default 5). */
export interface KnowledgeSelection {
  id: string;
  priority: number;
}

export interface RetrievedChunk {
  chunkId: number;
  documentId: string;
  knowledgeBaseId: string;
  title: string;
  url: string | null;
  headingPath: string[];
  anchor: string | null;
  /** 1-based PDF page the chunk came from, when known. */
  page: number | null;
  text: string;
  /** BM25 relevance (higher is better) times the knowledge base's priority weight. */
  score: number;
  /** The language the chunk's document was analysed in (BCP 47); absent means English. */
  language?: string | undefined;
}

/** Most query terms a search gets; longer questions keep their rarest terms. */
const MAX_QUERY_TERMS = 16;
/**
 * A term in more than half of all chunks has a BM25 IDF of zero (FTS5 clamps it to 1e-6): it
 * cannot change the ranking, yet it makes FTS score nearly every row. Such terms are dropped
 * unless nothing rarer is left.
 */
const MAX_USEFUL_DOC_SHARE = 0.5;

/** Priority 1..10 (default 5) scales relevance from 0.6x to 1.5x. */
export function priorityWeight(priority: number): number {
  return 1 + (priority - 5) * 0.1;
}

/**
 * A safe FTS5 query: every term quoted (so punctuation, quotes and FTS operators in user text
 * are just text) and OR-ed. English query words (englishQueryWords, text.ts): stopwords and
 * question frame words dropped unless nothing else is left, FTS quotes removed.
 */
export function buildFtsQuery(text: string): string | null {
  const terms = englishQueryWords(text).slice(0, MAX_QUERY_TERMS);
  return terms.length ? terms.map((t) => `"${t}"`).join(' OR ') : null;
}

/** The terms worth searching for, for both engines: rarest first, terms in most chunks dropped. */
export function selectTerms(terms: readonly string[], df: (term: string) => number, totalChunks: number): string[] {
  const withDf = terms
    .map((t) => ({ t, n: df(t) }))
    .filter((x) => x.n > 0)
    .sort((a, b) => a.n - b.n);
  const useful = withDf.filter((x) => x.n <= totalChunks * MAX_USEFUL_DOC_SHARE);
  return (useful.length ? useful : withDf.slice(0, 1)).slice(0, MAX_QUERY_TERMS).map((x) => x.t);
}

/** BM25's IDF made positive (a term in most chunks still weighs a little). */
export const positiveIdf = (n: number, df: number): number => Math.log(1 + (n - df + 0.5) / (df + 0.5));

export function toRetrieved(r: ChunkRow, score: number): RetrievedChunk {
  return {
    chunkId: r.id,
    documentId: r.document_id,
    knowledgeBaseId: r.knowledge_base_id,
    title: r.title,
    url: r.url,
    headingPath: r.headings ? r.headings.split(' › ') : [],
    anchor: r.anchor,
    page: r.page,
    text: r.body,
    score,
    language: r.language,
  };
}

/** A chunk's link: its document url plus the heading anchor, when both exist. */
export function chunkUrl(c: Pick<RetrievedChunk, 'url' | 'anchor'>): string | null {
  if (!c.url) return null;
  return c.anchor && !c.url.includes('#') ? `${c.url}#${c.anchor}` : c.url;
}
