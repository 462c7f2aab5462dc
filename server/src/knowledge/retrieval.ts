import type { Db } from '../db/open.js';
import { STOPWORDS, tokenize } from '../answer/text.js';

export interface KnowledgeSelection { id: string; priority: number }

export interface RetrievedChunk {
  chunkId: number;
  documentId: string;
  knowledgeBaseId: string;
  title: string;
  url: string | null;
  headingPath: string[];
  anchor: string | null;
  text: string;
  /** BM25 relevance (higher is better) times the knowledge base's priority weight. */
  score: number;
}

/** Most query terms FTS gets; longer questions keep their rarest-looking (longest) words. */
const MAX_QUERY_TERMS = 24;
/** BM25 column weights: a hit in a title or heading says more than one in the body. */
const COLUMN_WEIGHTS = { title: 2.0, headings: 1.5, body: 1.0 };

/** Priority 1..10 (default 5) scales relevance from 0.6x to 1.5x. */
export function priorityWeight(priority: number): number {
  return 1 + (priority - 5) * 0.1;
}

/**
 * Turns free text into a safe FTS5 query: every term quoted (so punctuation, quotes and FTS
 * operators in user text are just text) and OR-ed, stopwords dropped unless nothing else is left.
 */
export function buildFtsQuery(text: string): string | null {
  const tokens = [...new Set(tokenize(text).map((t) => t.replace(/"/g, '')).filter(Boolean))];
  const content = tokens.filter((t) => !STOPWORDS.has(t));
  let terms = content.length ? content : tokens;
  if (terms.length > MAX_QUERY_TERMS) terms = [...terms].sort((a, b) => b.length - a.length).slice(0, MAX_QUERY_TERMS);
  return terms.length ? terms.map((t) => `"${t}"`).join(' OR ') : null;
}

interface Row { id: number; document_id: string; knowledge_base_id: string; title: string; headings: string; body: string; anchor: string | null; url: string | null; rank: number }

export function createRetriever(db: Db) {
  const search = db.prepare<[string, string, number], Row>(`
    SELECT c.id, c.document_id, c.knowledge_base_id, c.title, c.headings, c.body, c.anchor, d.url,
           bm25(chunks_fts, ${COLUMN_WEIGHTS.title}, ${COLUMN_WEIGHTS.headings}, ${COLUMN_WEIGHTS.body}) AS rank
    FROM chunks_fts
    JOIN chunks c ON c.id = chunks_fts.rowid
    JOIN documents d ON d.id = c.document_id
    WHERE chunks_fts MATCH ? AND c.knowledge_base_id IN (SELECT value FROM json_each(?))
    ORDER BY rank LIMIT ?`);

  return {
    /** Best chunks across the selected knowledge bases, priority-weighted, best first. */
    retrieve(query: string, kbs: readonly KnowledgeSelection[], limit: number): RetrievedChunk[] {
      if (!kbs.length) return [];
      const fts = buildFtsQuery(query);
      if (!fts) return [];
      const weights = new Map(kbs.map((k) => [k.id, priorityWeight(k.priority)]));
      const differentPriorities = new Set(weights.values()).size > 1;
      // With mixed priorities a lower-ranked chunk of a favoured base can overtake: fetch more.
      const rows = search.all(fts, JSON.stringify(kbs.map((k) => k.id)), differentPriorities ? limit * 4 : limit);
      return rows
        .map((r) => ({
          chunkId: r.id, documentId: r.document_id, knowledgeBaseId: r.knowledge_base_id, title: r.title, url: r.url,
          headingPath: r.headings ? r.headings.split(' › ') : [], anchor: r.anchor, text: r.body,
          score: -r.rank * (weights.get(r.knowledge_base_id) ?? 1),
        }))
        .sort((a, b) => b.score - a.score)
        .slice(0, limit);
    },
  };
}

export type Retriever = ReturnType<typeof createRetriever>;

/** A chunk's link: its document url plus the heading anchor, when both exist. */
export function chunkUrl(c: Pick<RetrievedChunk, 'url' | 'anchor'>): string | null {
  if (!c.url) return null;
  return c.anchor && !c.url.includes('#') ? `${c.url}#${c.anchor}` : c.url;
}
