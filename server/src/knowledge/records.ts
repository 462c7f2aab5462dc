import { chunkDocument, type DocumentFormat } from './chunking.js';
import type { Queryable } from '../storage/port.js';

// The knowledge store's records: knowledge bases, documents and chunk rows, their row mapping and
// reads, and what a document is made of before it is stored (store.ts writes them).

export interface KnowledgeBase {
  id: string;
  organizationId: string;
  name: string;
  description: string | null;
  /** 'auto' (each document's language detected at ingest) or a BCP 47 tag that fixes it (docs/api-spec.md §12). */
  language: string;
  documentCount: number;
  chunkCount: number;
  createdAt: string;
  updatedAt: string;
}
export type DocumentSource = 'inline' | 'file' | 'url' | 'crawl';
export type DocumentStatus = 'queued' | 'processing' | 'ready' | 'failed';
/** Background fetch/crawl progress, shown on the document while it is queued or processing. */
export type DocumentProgress = Record<string, number | string | null>;
export interface DocumentRecord {
  id: string;
  knowledgeBaseId: string;
  title: string;
  url: string | null;
  format: string;
  source: DocumentSource;
  status: DocumentStatus;
  error: string | null;
  progress: DocumentProgress | null;
  chunkCount: number;
  bytes: number;
  createdAt: string;
  updatedAt: string;
  syncedAt: string | null;
  /** The language its text was analysed in (detected or the base's); null until it has content. */
  language: string | null;
}

export interface KbRow {
  id: string;
  organization_id: string;
  name: string;
  description: string | null;
  language: string;
  created_at: string;
  updated_at: string;
  document_count: number;
  chunk_count: number;
}
export interface DocRow {
  id: string;
  knowledge_base_id: string;
  title: string;
  url: string | null;
  format: string;
  source: DocumentSource;
  source_options: string | null;
  status: DocumentStatus;
  error: string | null;
  progress: string | null;
  chunk_count: number;
  bytes: number;
  created_at: string;
  updated_at: string;
  synced_at: string | null;
  language: string | null;
}

export const toKb = (r: KbRow): KnowledgeBase => ({
  id: r.id,
  organizationId: r.organization_id,
  name: r.name,
  description: r.description,
  language: r.language,
  documentCount: r.document_count,
  chunkCount: r.chunk_count,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});
export const toDoc = (r: DocRow): DocumentRecord => ({
  id: r.id,
  knowledgeBaseId: r.knowledge_base_id,
  title: r.title,
  url: r.url,
  format: r.format,
  source: r.source,
  status: r.status,
  error: r.error,
  progress: r.progress ? (JSON.parse(r.progress) as DocumentProgress) : null,
  chunkCount: r.chunk_count,
  bytes: r.bytes,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  syncedAt: r.synced_at,
  language: r.language,
});

export const KB_SELECT = `SELECT kb.id, kb.organization_id, kb.name, kb.description, kb.language, kb.created_at, kb.updated_at,
  (SELECT count(*) FROM documents d WHERE d.knowledge_base_id = kb.id) AS document_count,
  (SELECT coalesce(sum(d.chunk_count), 0) FROM documents d WHERE d.knowledge_base_id = kb.id) AS chunk_count
  FROM knowledge_bases kb`;
export const DOC_SELECT = `SELECT id, knowledge_base_id, title, url, format, source, source_options, status, error, progress, chunk_count, bytes, created_at, updated_at, synced_at, language
  FROM documents`;

/** A JSON document body: one piece of text in one format. */
export interface NewDocument {
  title: string;
  content: string;
  format: DocumentFormat;
  url: string | null;
}

/** One piece of a document with its own provenance: a PDF page, a crawled page, a whole file. */
export interface DocumentPart {
  content: string;
  format: DocumentFormat;
  /** Title for this part's chunks (a crawled page's own title); the document's title otherwise. */
  title?: string | undefined;
  /** The page this part came from (crawls); the document's url otherwise. */
  url?: string | null | undefined;
  /** 1-based page number (PDFs). */
  page?: number | null | undefined;
}

/** A document whose content was extracted by the server (files, fetched pages, crawls). */
export interface ParsedDocument {
  title: string;
  url: string | null;
  /** What the user gave: txt, markdown, html, pdf, docx, url, crawl… */
  format: string;
  source: DocumentSource;
  bytes: number;
  parts: DocumentPart[];
  sourceOptions?: Record<string, unknown> | undefined;
}

/** A document whose content arrives later (a background fetch or crawl). */
export interface PendingDocument {
  title: string;
  url: string;
  format: string;
  source: DocumentSource;
  sourceOptions?: Record<string, unknown> | undefined;
}

/** What changed in a knowledge base (the `knowledge_base.updated` webhook event). */
export type KnowledgeBaseChange =
  | { knowledgeBaseId: string; change: 'updated' | 'deleted' }
  | {
      knowledgeBaseId: string;
      change: 'document.added' | 'document.removed';
      document: { id: string; title: string; url: string | null; format: string; chunkCount: number };
      replacedDocumentIds?: string[];
    };

/** Chunk rows of a document, before any is written (pure work, outside the transaction). */
export interface ChunkRow {
  title: string;
  headings: string;
  text: string;
  anchor: string | null;
  url: string | null;
  page: number | null;
}

/** Chunks every part; ordinals run on across parts so a document's chunks keep their order. */
export function chunkParts(docTitle: string, parts: readonly DocumentPart[]): ChunkRow[] {
  const rows: ChunkRow[] = [];
  for (const part of parts) {
    const title = part.title ?? docTitle;
    for (const c of chunkDocument({ title, content: part.content, format: part.format })) {
      rows.push({
        title,
        headings: c.headingPath.join(' › '),
        text: c.text,
        anchor: c.anchor,
        url: part.url ?? null,
        page: part.page ?? null,
      });
    }
  }
  return rows;
}

/** `?, ?, ?` for an IN list (never empty: callers handle the empty list). */
export const placeholders = (n: number): string => Array.from({ length: n }, () => '?').join(', ');

export async function readKb(q: Queryable, organizationId: string, id: string): Promise<KnowledgeBase | null> {
  const row = await q.get<KbRow>(`${KB_SELECT} WHERE kb.id = ? AND kb.organization_id = ?`, [id, organizationId]);
  return row ? toKb(row) : null;
}

export async function readDocument(q: Queryable, knowledgeBaseId: string, id: string): Promise<DocumentRecord | null> {
  const row = await q.get<DocRow>(`${DOC_SELECT} WHERE id = ? AND knowledge_base_id = ?`, [id, knowledgeBaseId]);
  return row ? toDoc(row) : null;
}

/** What a knowledge base update may change. */
export interface KbPatch {
  name?: string | undefined;
  description?: string | null | undefined;
  language?: string | undefined;
}

/** Up to 2,000 characters of a document's chunks: what its language is detected from. */
export function sampleOf(rows: readonly ChunkRow[]): string {
  let out = '';
  for (const r of rows) {
    if (out.length >= 2_000) break;
    out += `${r.text}\n`;
  }
  return out;
}

/** A JSON document as an extracted one with a single part. */
export function parsedOf(input: NewDocument): ParsedDocument {
  return {
    title: input.title,
    url: input.url,
    format: input.format,
    source: 'inline',
    bytes: Buffer.byteLength(input.content),
    parts: [{ content: input.content, format: input.format }],
  };
}
