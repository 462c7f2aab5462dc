import { Router, type Response } from 'express';
import { z } from 'zod';
import type { AssistantStore } from '../assistants/service.js';
import type { AppContext } from '../context.js';
import { nowIso } from '../context.js';
import { principalOf, requirePermission } from '../auth/middleware.js';
import { AppError, notFound } from '../http/errors.js';
import { readPage, sendData, sendPage } from '../http/pagination.js';
import { parseInput, pathParams } from '../http/validate.js';
import { isLanguageTag } from '../text/languages.js';
import { listDocumentChunks } from './chunks.js';
import { readUpload } from './files/upload.js';
import type { ChunkSearch } from './embeddings/hybrid.js';
import { chunkUrl } from './retrieval.js';
import type { KnowledgeBase, KnowledgeStore } from './store.js';
import type { UrlSources } from './web/url-sources.js';

/**
 * A knowledge base's language (docs/api-spec.md §12): 'auto' (each document's language detected at ingest)
 * or a well-formed BCP 47 tag (at most 35 characters, RFC 5646's practical limit), canonicalised
 * ("PT-br" → "pt-BR").
 */
export const kbLanguageSchema = z
  .string()
  .trim()
  .max(35)
  .refine((s) => s === 'auto' || isLanguageTag(s), { message: "must be 'auto' or a BCP 47 language tag such as 'de' or 'pt-BR'" })
  .transform((s) => (s === 'auto' ? s : (Intl.getCanonicalLocales(s)[0] as string)))
  .describe("'auto' (default: each document's language detected) or a BCP 47 tag that fixes it; a change re-analyses the documents");
export const kbSchema = z.strictObject({
  name: z.string().trim().min(1).max(200),
  description: z.string().max(2000).nullish(),
  language: kbLanguageSchema.default('auto'),
});
export const kbPatchSchema = z.strictObject({
  name: z.string().trim().min(1).max(200).optional(),
  description: z.string().max(2000).nullable().optional(),
  language: kbLanguageSchema.optional(),
});
export const documentSchema = z.strictObject({
  title: z.string().trim().min(1).max(500),
  content: z.string().refine((s) => s.trim().length > 0, { message: 'must not be empty' }),
  format: z.enum(['text', 'markdown', 'html']).default('text'),
  url: z
    .url({ protocol: /^https?$/, message: 'must be an http(s) URL' })
    .max(2048)
    .nullish(),
});
export const searchSchema = z.strictObject({ query: z.string().trim().min(1).max(4000), limit: z.int().min(1).max(50).default(10) });

export function knowledgeRouter(
  ctx: AppContext,
  store: KnowledgeStore,
  assistants: AssistantStore,
  retriever: ChunkSearch,
  urlSources: UrlSources,
): Router {
  const r = Router();

  /** Bases a key bound to one assistant may touch: those connected to it. */
  const boundKbIds = async (res: Response): Promise<string[] | null> => {
    const p = principalOf(res);
    if (!p.assistantId) return null;
    return (await assistants.get(p.organizationId, p.assistantId))?.knowledgeBases.map((k) => k.id) ?? [];
  };
  const visibleKb = async (res: Response, id: string): Promise<KnowledgeBase> => {
    const only = await boundKbIds(res);
    const kb = only && !only.includes(id) ? null : await store.getKb(principalOf(res).organizationId, id);
    if (!kb) throw notFound('Knowledge base');
    return kb;
  };

  r.post('/knowledge-bases', requirePermission('knowledge_bases:write'), async (req, res) => {
    const p = principalOf(res);
    if (p.assistantId) throw new AppError('permission_denied', 'A key bound to one assistant cannot create knowledge bases');
    const input = parseInput(kbSchema, req.body);
    sendData(
      res,
      await store.createKb(
        p.organizationId,
        { name: input.name, description: input.description ?? null, language: input.language },
        nowIso(ctx),
      ),
      201,
    );
  });
  r.get('/knowledge-bases', requirePermission('knowledge_bases:read'), async (req, res) => {
    const page = readPage(req);
    const { items, total } = await store.listKbs(principalOf(res).organizationId, await boundKbIds(res), page);
    sendPage(res, items, total, page);
  });
  r.get('/knowledge-bases/:id', requirePermission('knowledge_bases:read'), async (req, res) => {
    const { id } = pathParams(req, 'id');
    sendData(res, await visibleKb(res, id));
  });
  r.patch('/knowledge-bases/:id', requirePermission('knowledge_bases:write'), async (req, res) => {
    const { id } = pathParams(req, 'id');
    const kb = await visibleKb(res, id);
    const input = parseInput(kbPatchSchema, req.body);
    sendData(res, await store.updateKb(kb.organizationId, kb.id, input, nowIso(ctx)));
  });
  r.delete('/knowledge-bases/:id', requirePermission('knowledge_bases:write'), async (req, res) => {
    const { id } = pathParams(req, 'id');
    const kb = await visibleKb(res, id);
    await store.deleteKb(kb.organizationId, kb.id);
    assistants.forgetOrganization(kb.organizationId); // its links went with it: chat stops listing it at once here
    sendData(res, { id: kb.id, deleted: true });
  });

  // Three ways in (docs/api-spec.md §6): a multipart file, {url, crawl?} fetched by the server, or JSON content.
  r.post('/knowledge-bases/:id/documents', requirePermission('knowledge_bases:write'), async (req, res) => {
    const { id } = pathParams(req, 'id');
    const kb = await visibleKb(res, id);
    if (req.is('multipart/form-data')) {
      const parsed = await readUpload(req);
      sendData(res, await store.addParsedDocument(kb.id, parsed, nowIso(ctx)), 201);
      return;
    }
    const body = req.body as Record<string, unknown> | undefined;
    if (body && typeof body === 'object' && 'url' in body && !('content' in body)) {
      sendData(res, await urlSources.add(kb.id, body), 201);
      return;
    }
    const input = parseInput(documentSchema, req.body);
    sendData(
      res,
      await store.addDocument(
        kb.id,
        { title: input.title, content: input.content, format: input.format, url: input.url ?? null },
        nowIso(ctx),
      ),
      201,
    );
  });
  r.post('/knowledge-bases/:id/documents/:docId/sync', requirePermission('knowledge_bases:write'), async (req, res) => {
    const { id, docId } = pathParams(req, 'id', 'docId');
    const kb = await visibleKb(res, id);
    sendData(res, await urlSources.resync(kb.id, docId), 202);
  });
  r.get('/knowledge-bases/:id/documents', requirePermission('knowledge_bases:read'), async (req, res) => {
    const { id } = pathParams(req, 'id');
    const kb = await visibleKb(res, id);
    const page = readPage(req);
    const { items, total } = await store.listDocuments(kb.id, page);
    sendPage(res, items, total, page);
  });
  r.get('/knowledge-bases/:id/documents/:docId', requirePermission('knowledge_bases:read'), async (req, res) => {
    const { id, docId } = pathParams(req, 'id', 'docId');
    const kb = await visibleKb(res, id);
    const doc = await store.getDocument(kb.id, docId);
    if (!doc) throw notFound('Document');
    sendData(res, doc);
  });
  r.get('/knowledge-bases/:id/documents/:docId/chunks', requirePermission('knowledge_bases:read'), async (req, res) => {
    const { id, docId } = pathParams(req, 'id', 'docId');
    const kb = await visibleKb(res, id);
    const doc = await store.getDocument(kb.id, docId);
    if (!doc) throw notFound('Document');
    const page = readPage(req);
    const { items, total } = await listDocumentChunks(ctx.storage, doc.id, page);
    sendPage(res, items, total, page);
  });
  r.delete('/knowledge-bases/:id/documents/:docId', requirePermission('knowledge_bases:write'), async (req, res) => {
    const { id, docId } = pathParams(req, 'id', 'docId');
    const kb = await visibleKb(res, id);
    if (!(await store.deleteDocument(kb.id, docId, nowIso(ctx)))) throw notFound('Document');
    sendData(res, { id: docId, deleted: true });
  });

  r.post('/knowledge-bases/:id/search', requirePermission('knowledge_bases:read'), async (req, res) => {
    const { id } = pathParams(req, 'id');
    const kb = await visibleKb(res, id);
    const input = parseInput(searchSchema, req.body);
    const hits = await retriever.retrieve(input.query, [{ id: kb.id, priority: 5 }], input.limit);
    sendData(
      res,
      hits.map((h) => ({
        chunkId: String(h.chunkId),
        documentId: h.documentId,
        title: h.title,
        url: chunkUrl(h),
        ...(h.page ? { page: h.page } : {}),
        text: h.text,
        score: Number(h.score.toPrecision(6)),
      })),
    );
  });

  return r;
}
