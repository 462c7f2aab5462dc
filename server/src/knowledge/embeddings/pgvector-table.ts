import type { Tx } from '../../storage/port.js';

/**
 * The pgvector table's name and its write, shared by pgvector.ts (which makes, fills and searches
 * it) and postgres-store.ts (which writes it with the float32 rows; its statements, which read the
 * column's dimension and drop the table on a model change, are in postgres-vector-sql.ts). Imports
 * nothing of them.
 */

export const PGVECTOR_TABLE = 'chunk_pgvectors';
/** pgvector's HNSW index takes `vector` columns up to this many dimensions; beyond, exact scans. */
export const HNSW_MAX_DIM = 2000;
/** The pgvector column's dimension (its typmod), or null when the table does not exist. */
export const PGVECTOR_DIM_SQL = `(SELECT a.atttypmod FROM pg_attribute a WHERE a.attrelid = to_regclass('${PGVECTOR_TABLE}') AND a.attname = 'embedding' AND NOT a.attisdropped)`;

/** `[1,2,3]`: pgvector's text form. A float32 printed as the shortest double reads back as the same float32. */
export const vectorText = (v: Float32Array): string => `[${Array.from(v).join(',')}]`;

export function norm(v: Float32Array): number {
  let s = 0;
  for (const x of v) s += x * x;
  return Math.sqrt(s);
}

/**
 * Inside a vector write (postgres-store.ts), after the float32 rows: the same vectors into the
 * pgvector table. Zero vectors have no cosine distance: left out, as the replica leaves them out.
 */
export async function writePgvectors(
  tx: Tx,
  rows: readonly { chunkId: number; knowledgeBaseId: string; vector: Float32Array }[],
): Promise<void> {
  const values: string[] = [];
  const params: (string | number)[] = [];
  for (const r of rows) {
    if (!(norm(r.vector) > 0)) continue;
    values.push('(?, ?, CAST(? AS vector))');
    params.push(r.chunkId, r.knowledgeBaseId, vectorText(r.vector));
  }
  if (!values.length) return;
  await tx.run(
    `INSERT INTO ${PGVECTOR_TABLE} (chunk_id, knowledge_base_id, embedding) VALUES ${values.join(', ')}
    ON CONFLICT (chunk_id) DO UPDATE SET knowledge_base_id = excluded.knowledge_base_id, embedding = excluded.embedding`,
    params,
  );
}
