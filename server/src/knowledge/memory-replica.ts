import type { Storage } from '../storage/port.js';
import { MemoryIndex } from './memory-index.js';

/** New chunks indexed inline by a question; more than this are indexed in the background. */
const INLINE_CATCH_UP = 5_000;
/** Chunks indexed per background slice (one slice ≈ 20-40 ms, then the event loop runs). */
const BACKGROUND_SLICE = 2_000;

/**
 * The in-memory BM25 replica of the chunks (memory-index.ts), kept current without a question
 * doing database work while nothing changed (see createMemoryReplica).
 */
export interface MemoryReplica {
  /** The index caught up with new chunks, or null when the full-text index must answer. */
  current(): MemoryIndex | null | Promise<MemoryIndex | null>;
  /** Starts filling the index in the background (server start). */
  warmUp(): void;
  /** True once questions are answered by their final engine (latched, see retrieval.ts). */
  ready(): boolean;
  /** Which engine answers now; starts a pending catch-up. */
  engine(): 'memory' | 'fts';
  /** Another connection's commit: the replica cannot know what changed, so it is rebuilt. */
  reset(): void;
  /** Chunks were added (caught up from the last indexed id) and `removed` deleted. */
  invalidate(removed: readonly number[]): void;
  /**
   * Chunks another instance committed (PostgreSQL's feed, by commit cursor): kept for the next
   * catch-up. True when the caller's caches must be invalidated too.
   */
  noteRemoteCommit(added: readonly number[], removed: readonly number[]): boolean;
}

interface ChunkSource {
  id: number;
  knowledge_base_id: string;
  title: string;
  headings: string;
  body: string;
  language: string;
}

/**
 * The replica follows the chunks through `chunks.id` (new chunks have higher ids: caught up from
 * the last indexed one) and the change feed (deleted ids; `external` commits rebuild it). On
 * PostgreSQL the feed also names the chunks other instances committed, by a commit cursor: the
 * catch-up reads those by id, including any that `id > last` passed over because their
 * transaction committed late.
 */
export function createMemoryReplica(
  storage: Storage,
  opts: {
    /** Above this many chunks the replica is not kept (0 = never). */
    memoryMax: number;
    /** The chunk count (cached by the caller until the chunks change). */
    countChunks: () => Promise<number>;
    /** Reads the change feed before the replica is used (change-feed.ts poll). */
    poll: () => void;
  },
): MemoryReplica {
  const { memoryMax, countChunks, poll } = opts;
  const chunksAfter = 'SELECT id, knowledge_base_id, title, headings, body, language FROM chunks WHERE id > ? ORDER BY id LIMIT ?';
  const chunksByIds =
    "SELECT id, knowledge_base_id, title, headings, body, language FROM chunks WHERE id = ANY(CAST(string_to_array(?, ',') AS bigint[]))";
  /** The index questions use; null until it holds every chunk. */
  let memory: MemoryIndex | null = null;
  /** An index being filled in the background (first build, or a rebuild to drop tombstones). */
  let building: { index: MemoryIndex; removedMeanwhile: number[] } | null = null;
  let memoryDisabled = memoryMax <= 0;
  let readyOnce = false;
  let memoryDirty = false;
  /** The catch-up in flight: questions meanwhile share it (one reader of new chunks at a time). */
  let catchingUp: Promise<MemoryIndex | null> | null = null;
  /** Chunks deleted while a catch-up read was in flight: applied after its rows are added. */
  let removedDuringCatchUp: number[] | null = null;
  /**
   * Chunks the PostgreSQL feed read by its commit cursor (change-feed.ts), not yet in the index:
   * among them those `id > last` passed over because their transaction committed late. Kept
   * until the next catch-up reads them (a rebuild reads them anyway).
   */
  const pendingAdds = new Set<number>();

  const addRows = (index: MemoryIndex, rows: readonly ChunkSource[]): void => {
    for (const r of rows)
      index.add({
        id: r.id,
        knowledgeBaseId: r.knowledge_base_id,
        title: r.title,
        headings: r.headings,
        body: r.body,
        language: r.language,
      });
  };
  const addChunks = async (index: MemoryIndex, max: number): Promise<number> => {
    const rows = await storage.all<ChunkSource>(chunksAfter, [index.lastChunkId, max]);
    addRows(index, rows);
    return rows.length;
  };
  const addPending = async (index: MemoryIndex): Promise<void> => {
    if (!pendingAdds.size) return;
    const ids = [...pendingAdds];
    pendingAdds.clear();
    for (let i = 0; i < ids.length; i += 1_000)
      addRows(index, await storage.all<ChunkSource>(chunksByIds, [ids.slice(i, i + 1_000).join(',')]));
  };

  function buildInBackground(): void {
    if (building || memoryDisabled) return;
    const b = { index: new MemoryIndex(), removedMeanwhile: [] as number[] };
    building = b;
    const step = async (): Promise<void> => {
      if (building !== b) return; // reset meanwhile (another connection's commit)
      let added: number;
      try {
        added = await addChunks(b.index, BACKGROUND_SLICE);
      } catch {
        // The database closed meanwhile (shutdown): nothing to build.
        if (building === b) building = null;
        return;
      }
      if (building !== b) return;
      if (added === BACKGROUND_SLICE) {
        if (b.index.size > memoryMax) {
          // Too big for memory after all: questions stay on the full-text index.
          building = null;
          memory = null;
          memoryDisabled = true;
          return;
        }
        setImmediate(() => void step());
        return;
      }
      for (const id of b.removedMeanwhile) b.index.remove(id);
      b.index.compact();
      memory = b.index;
      memoryDirty = true; // chunks committed after the last slice are caught up by the next question
      building = null;
    };
    setImmediate(() => void step());
  }

  function current(): MemoryIndex | null | Promise<MemoryIndex | null> {
    poll();
    if (memoryDisabled) return null;
    if (memory && !memoryDirty) return memory; // the common case: no database work
    return (catchingUp ??= catchUp().finally(() => {
      catchingUp = null;
    }));
  }

  /** The first index: read inline when small, else built in the background. */
  async function firstBuild(): Promise<MemoryIndex | null> {
    const total = await countChunks();
    if (memory || memoryDisabled) return memory;
    if (total > memoryMax) {
      memoryDisabled = true;
      return null;
    }
    if (total > INLINE_CATCH_UP) {
      buildInBackground();
      return null;
    }
    const index = new MemoryIndex();
    removedDuringCatchUp = [];
    memoryDirty = false;
    pendingAdds.clear(); // the full read below holds every committed chunk
    await addChunks(index, INLINE_CATCH_UP + 1);
    await addPending(index); // committed during the read, behind its ids
    for (const id of removedDuringCatchUp) index.remove(id);
    removedDuringCatchUp = null;
    if (memory || memoryDisabled) return memory; // a reset or a background build won meanwhile
    index.compact();
    memory = index;
    return memory;
  }

  async function catchUp(): Promise<MemoryIndex | null> {
    if (!memory) return firstBuild();
    const index = memory;
    // New chunks have higher ids than every indexed one: catch up from the last.
    removedDuringCatchUp = [];
    memoryDirty = false;
    if (pendingAdds.size > INLINE_CATCH_UP) {
      // A bulk import elsewhere: rebuilt in the background, the full-text index answers meanwhile.
      memory = null;
      removedDuringCatchUp = null;
      pendingAdds.clear();
      buildInBackground();
      return null;
    }
    const added = await addChunks(index, INLINE_CATCH_UP);
    await addPending(index);
    for (const id of removedDuringCatchUp) index.remove(id);
    removedDuringCatchUp = null;
    if (memory !== index) return memory; // reset meanwhile
    if (added === INLINE_CATCH_UP) {
      // A bulk import: index the rest in the background, the full-text index answers meanwhile.
      memory = null;
      buildInBackground();
      return null;
    }
    if (index.size > memoryMax) {
      memory = null;
      memoryDisabled = true;
      return null;
    }
    if (index.tombstones > Math.max(1_000, index.size / 4)) buildInBackground();
    return index;
  }

  /** Starts the catch-up or build a question would start, without waiting for it. */
  function kick(): void {
    const pending = current();
    if (pending instanceof Promise) pending.catch(() => undefined);
  }

  return {
    current,
    warmUp() {
      if (!memory) buildInBackground();
    },
    ready() {
      if (!memory && !memoryDisabled && !building) kick();
      // Latched: a later rebuild (a bulk import) keeps answering through the full-text index
      // meanwhile, and a load balancer must not take the instance out for it.
      readyOnce ||= memoryDisabled || memory !== null;
      return readyOnce;
    },
    engine() {
      kick();
      return memory && !memoryDisabled ? 'memory' : 'fts';
    },
    reset() {
      memory = null;
      building = null;
      memoryDirty = false;
      memoryDisabled = memoryMax <= 0;
      pendingAdds.clear();
    },
    invalidate(removed) {
      memoryDirty = true;
      memoryDisabled = memoryMax <= 0; // a base that shrank may fit in memory again
      for (const id of removed) memory?.remove(id);
      removedDuringCatchUp?.push(...removed);
      building?.removedMeanwhile.push(...removed);
    },
    noteRemoteCommit(added, removed) {
      for (const id of removed) pendingAdds.delete(id);
      const before = pendingAdds.size;
      // With no index built or being built, the first catch-up reads every chunk anyway.
      if (!memoryDisabled && (memory || building || catchingUp)) {
        for (const id of added) if (!memory?.has(id)) pendingAdds.add(id);
      }
      // Most are this instance's own chunks, already caught up: nothing to do for those.
      return pendingAdds.size > before || removed.length > 0;
    },
  };
}
