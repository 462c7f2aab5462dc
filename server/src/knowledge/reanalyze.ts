/**
 * Knowledge indexed before issue 25 (every language) is re-analysed once, at start: migrations
 * 030 (SQLite) and 009 (PostgreSQL) add the language columns, empty the full-text index and list
 * every knowledge base holding chunks in `text_reanalysis`; the analyzers are code, not SQL, so
 * the rest happens here. Each base in one transaction: its documents' languages (the base's
 * fixed one, or detected), the same on their chunks, and the chunks' full-text entries written
 * from their language's analysis. Chunk ids do not change (no index has read them yet at start).
 *
 * Idempotent and recorded: a base's row is deleted in the transaction that re-analyses it, so a
 * restart midway redoes only what is left, and instances started together (PostgreSQL) do each
 * base once: the second waits on the first's row lock and then finds nothing to delete.
 */
import type { Logger } from '../lib/logger.js';
import type { Storage } from '../storage/port.js';
import { detectLanguage } from '../text/detect.js';
import { createFullTextIndex, type FullTextChunk } from './full-text.js';

interface StoredChunk {
  id: number;
  document_id: string;
  title: string;
  headings: string;
  body: string;
}

/** At start, once the schema is current (storage/open.ts's afterMigrate): re-analyses what is pending and says so. */
export async function reanalyzeAtStart(storage: Storage, logger: Logger): Promise<void> {
  const done = await reanalyzePending(storage);
  if (done.knowledgeBases) logger.info('knowledge re-analysed per language', done);
}

/** Re-analyses every pending knowledge base; returns how many bases and chunks were done. */
export async function reanalyzePending(storage: Storage): Promise<{ knowledgeBases: number; chunks: number }> {
  const fullText = createFullTextIndex(storage);
  const pending = await storage.all<{ knowledge_base_id: string }>(
    'SELECT knowledge_base_id FROM text_reanalysis ORDER BY knowledge_base_id',
  );
  let bases = 0;
  let chunkCount = 0;
  for (const { knowledge_base_id: kbId } of pending) {
    chunkCount += await storage.tx(async (tx) => {
      if ((await tx.run('DELETE FROM text_reanalysis WHERE knowledge_base_id = ?', [kbId])).changes === 0) return 0;
      const fixed = (await tx.get<{ language: string }>('SELECT language FROM knowledge_bases WHERE id = ?', [kbId]))?.language ?? 'auto';
      const chunks = await tx.all<StoredChunk>(
        'SELECT id, document_id, title, headings, body FROM chunks WHERE knowledge_base_id = ? ORDER BY document_id, ordinal',
        [kbId],
      );
      const byDoc = new Map<string, StoredChunk[]>();
      for (const c of chunks) {
        let list = byDoc.get(c.document_id);
        if (!list) byDoc.set(c.document_id, (list = []));
        list.push(c);
      }
      for (const [docId, rows] of byDoc) {
        const language =
          fixed === 'auto'
            ? await detectLanguage(
                rows
                  .map((r) => r.body)
                  .join('\n')
                  .slice(0, 2_000),
              )
            : fixed;
        await tx.run('UPDATE documents SET language = ? WHERE id = ?', [language, docId]);
        await tx.run('UPDATE chunks SET language = ? WHERE document_id = ?', [language, docId]);
        const entries: FullTextChunk[] = rows.map((r) => ({ id: r.id, title: r.title, headings: r.headings, body: r.body, language }));
        await fullText.add(tx, entries);
      }
      return chunks.length;
    });
    bases++;
  }
  return { knowledgeBases: bases, chunks: chunkCount };
}
