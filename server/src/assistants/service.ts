import { notFound } from '../http/errors.js';
import { withMessagesInLanguage } from '../i18n/default-messages.js';
import { newId } from '../lib/ids.js';
import { parseJson } from '../lib/json.js';
import { memoByText } from '../lib/memo.js';
import { createTtlCache } from '../lib/ttl-cache.js';
import type { Queryable, Storage, Tx } from '../storage/port.js';
import type { AssistantConfig, AssistantType } from './schemas.js';

export interface Assistant extends AssistantConfig {
  id: string;
  organizationId: string;
  type: AssistantType;
  createdAt: string;
  updatedAt: string;
}

interface AssistantRow {
  id: string;
  organization_id: string;
  type: AssistantType;
  name: string;
  config: string;
  created_at: string;
  updated_at: string;
}
interface LinkRow {
  knowledge_base_id: string;
  priority: number;
}
/** An assistant row with one of its links (none: the link columns are null). */
type LinkedRow = AssistantRow & { [K in keyof LinkRow]: LinkRow[K] | null };

type StoredConfig = Omit<AssistantConfig, 'name' | 'knowledgeBases'>;

const SQL = {
  // The row and its links in one statement (every chat request reads it): one row per link.
  byIdLinked: `SELECT a.id, a.organization_id, a.type, a.name, a.config, a.created_at, a.updated_at, l.knowledge_base_id, l.priority
    FROM assistants a LEFT JOIN assistant_knowledge_bases l ON l.assistant_id = a.id
    WHERE a.id = ? AND a.organization_id = ? ORDER BY l.position`,
  // The same for an id of any organization (the widget knows only the assistant's id).
  byIdAnyOrgLinked: `SELECT a.id, a.organization_id, a.type, a.name, a.config, a.created_at, a.updated_at, l.knowledge_base_id, l.priority
    FROM assistants a LEFT JOIN assistant_knowledge_bases l ON l.assistant_id = a.id
    WHERE a.id = ? ORDER BY l.position`,
  links: 'SELECT knowledge_base_id, priority FROM assistant_knowledge_bases WHERE assistant_id = ? ORDER BY position',
  kbInOrg: 'SELECT id FROM knowledge_bases WHERE id = ? AND organization_id = ?',
  exists: 'SELECT 1 AS found FROM assistants WHERE id = ? AND organization_id = ?',
} as const;

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/**
 * The stored configuration, parsed once per distinct text: every chat request reads its
 * assistant, and parsing the same JSON each time showed in chat profiles. The text is the key,
 * so an edited assistant parses anew; the value is shared between requests, hence frozen (a
 * caller that changed it in place would fail loudly instead of changing other requests' view).
 * Default messages read in the assistant's language (i18n/default-messages.ts).
 */
const storedConfig = memoByText(
  (text: string): StoredConfig => deepFreeze(withMessagesInLanguage(parseJson<StoredConfig>(text, {} as StoredConfig))),
  1_000,
);

/**
 * How long this process trusts an assistant it read for chat (edited, deleted or relinked through
 * another instance or straight in the database): the bound on how stale it may be here. Changes
 * made through this process drop its entries at once (forgetOrganization, called by the routes
 * after their write commits). The read was ~110 µs of every chat request on SQLite.
 */
export const ASSISTANT_CACHE_TTL_MS = 5_000;
/** Assistants held at most; the oldest read goes first (a burst of distinct ids cannot grow memory). */
const ASSISTANT_CACHE_MAX = 10_000;

export interface AssistantStoreOptions {
  /** 0 turns the cache off (every chat request reads its assistant). */
  cacheTtlMs?: number;
  /** Milliseconds now; the app's clock, so tests can step past the TTL. */
  now?: () => number;
}

/** Assistants and their knowledge-base links (the store behind the assistant routes and chat). */
export interface AssistantStore {
  /** One assistant of the organization, links included; `q`: a transaction reading its own writes (the storage by default). */
  get(organizationId: string, id: string, q?: Queryable): Promise<Assistant | null>;
  /**
   * For chat: up to ASSISTANT_CACHE_TTL_MS old unless this process forgot it (frozen: do not
   * change it). `organizationId` null: any organization's (the widget). Not for read-modify-write.
   */
  recent(organizationId: string | null, id: string): Promise<Assistant | null>;
  /**
   * Drops this process's assistants of an organization: call it after a write that changes one
   * of them (its row, its config, its knowledge-base links, a linked knowledge base) has
   * committed, so the next chat reads it again.
   */
  forgetOrganization(organizationId: string): void;
  /** A new assistant; `tx`: the caller's transaction (with its audit entry), without it a transaction of its own. */
  create(organizationId: string, type: AssistantType, config: AssistantConfig, at: string, tx?: Tx): Promise<Assistant>;
  /** Replaces an assistant's whole config; `tx`: the caller's transaction (with its audit entry and webhook event), without it a transaction of its own. */
  replace(organizationId: string, id: string, config: AssistantConfig, at: string, tx?: Tx): Promise<Assistant>;
  /** A page of the organization's assistants, newest first; `onlyId` narrows it for a key bound to one assistant. */
  list(
    organizationId: string,
    onlyId: string | null,
    page: { limit: number; offset: number },
  ): Promise<{ items: Assistant[]; total: number }>;
  /** Deletes an assistant (false when there was none); `q`: the caller's transaction (with its audit entry), the storage by default. */
  remove(organizationId: string, id: string, q?: Queryable): Promise<boolean>;
}

/**
 * Assistants and their knowledge-base links. Writes that must commit with something else (an
 * audit entry, a webhook event) take the caller's `Tx`; reads take any `Queryable`.
 */
export function createAssistantStore(storage: Storage, opts: AssistantStoreOptions = {}): AssistantStore {
  const now = opts.now ?? Date.now;
  const cache = createTtlCache<string, Assistant>({
    ttlMs: opts.cacheTtlMs ?? ASSISTANT_CACHE_TTL_MS,
    maxEntries: ASSISTANT_CACHE_MAX,
    groupOf: (a) => a.organizationId,
  });

  function forgetOrganization(organizationId: string): void {
    cache.forgetGroup(organizationId);
  }

  /** The assistant for chat, from this process's cache when read less than the TTL ago. */
  async function recent(organizationId: string | null, id: string): Promise<Assistant | null> {
    const assistant = await cache.get(id, now(), async () => {
      const read = linked(await storage.all<LinkedRow>(SQL.byIdAnyOrgLinked, [id]));
      // Frozen: one read serves many requests.
      return read && deepFreeze(read);
    });
    if (!assistant) return null;
    return organizationId === null || assistant.organizationId === organizationId ? assistant : null;
  }

  function assemble(row: AssistantRow, links: readonly LinkRow[]): Assistant {
    return {
      id: row.id,
      organizationId: row.organization_id,
      type: row.type,
      name: row.name,
      ...storedConfig(row.config),
      knowledgeBases: links.map((l) => ({ id: l.knowledge_base_id, priority: l.priority })),
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    } as Assistant;
  }

  async function toAssistant(q: Queryable, row: AssistantRow): Promise<Assistant> {
    return assemble(row, await q.all<LinkRow>(SQL.links, [row.id]));
  }

  async function get(q: Queryable, organizationId: string, id: string): Promise<Assistant | null> {
    return linked(await q.all<LinkedRow>(SQL.byIdLinked, [id, organizationId]));
  }

  function linked(rows: readonly LinkedRow[]): Assistant | null {
    const [row] = rows;
    if (!row) return null;
    return assemble(
      row,
      rows.flatMap((r) =>
        r.knowledge_base_id === null ? [] : [{ knowledge_base_id: r.knowledge_base_id, priority: r.priority as number }],
      ),
    );
  }

  async function writeLinks(tx: Tx, assistantId: string, organizationId: string, kbs: AssistantConfig['knowledgeBases']): Promise<void> {
    for (const kb of kbs) if (!(await tx.get(SQL.kbInOrg, [kb.id, organizationId]))) throw notFound(`Knowledge base ${kb.id}`);
    await tx.run('DELETE FROM assistant_knowledge_bases WHERE assistant_id = ?', [assistantId]);
    for (const [i, kb] of kbs.entries()) {
      await tx.run('INSERT INTO assistant_knowledge_bases (assistant_id, knowledge_base_id, priority, position) VALUES (?, ?, ?, ?)', [
        assistantId,
        kb.id,
        kb.priority,
        i,
      ]);
    }
  }

  const splitConfig = (config: AssistantConfig): { name: string; stored: StoredConfig; kbs: AssistantConfig['knowledgeBases'] } => {
    const { name, knowledgeBases, ...stored } = config;
    // Template ids make single templates addressable (analytics, the dashboard).
    stored.templates = stored.templates.map((t) => ({ ...t, id: t.id ?? newId('tpl') }));
    return { name, stored, kbs: knowledgeBases };
  };

  async function create(tx: Tx, organizationId: string, type: AssistantType, config: AssistantConfig, at: string): Promise<Assistant> {
    const id = newId('asst');
    const { name, stored, kbs } = splitConfig(config);
    await tx.run('INSERT INTO assistants (id, organization_id, type, name, config, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [
      id,
      organizationId,
      type,
      name,
      JSON.stringify(stored),
      at,
      at,
    ]);
    await writeLinks(tx, id, organizationId, kbs);
    return (await get(tx, organizationId, id)) as Assistant;
  }

  async function replace(tx: Tx, organizationId: string, id: string, config: AssistantConfig, at: string): Promise<Assistant> {
    const { name, stored, kbs } = splitConfig(config);
    await tx.run('UPDATE assistants SET name = ?, config = ?, updated_at = ? WHERE id = ? AND organization_id = ?', [
      name,
      JSON.stringify(stored),
      at,
      id,
      organizationId,
    ]);
    await writeLinks(tx, id, organizationId, kbs);
    return (await get(tx, organizationId, id)) as Assistant;
  }

  return {
    get(organizationId: string, id: string, q: Queryable = storage): Promise<Assistant | null> {
      return get(q, organizationId, id);
    },
    recent,
    forgetOrganization,
    create(organizationId: string, type: AssistantType, config: AssistantConfig, at: string, tx?: Tx): Promise<Assistant> {
      return tx ? create(tx, organizationId, type, config, at) : storage.tx((own) => create(own, organizationId, type, config, at));
    },
    replace(organizationId: string, id: string, config: AssistantConfig, at: string, tx?: Tx): Promise<Assistant> {
      if (tx) return replace(tx, organizationId, id, config, at);
      return storage.tx((own) => replace(own, organizationId, id, config, at)).finally(() => forgetOrganization(organizationId));
    },
    async list(
      organizationId: string,
      onlyId: string | null,
      page: { limit: number; offset: number },
    ): Promise<{ items: Assistant[]; total: number }> {
      // Built in TypeScript rather than `? IS NULL OR …`: PostgreSQL cannot type a parameter that is only tested for NULL.
      const where = onlyId === null ? 'organization_id = ?' : 'organization_id = ? AND id = ?';
      const params = onlyId === null ? [organizationId] : [organizationId, onlyId];
      const total = (await storage.get<{ n: number }>(`SELECT count(*) AS n FROM assistants WHERE ${where}`, params))?.n ?? 0;
      // Newest first; ids sort by creation time, so they break ties within one millisecond.
      const rows = await storage.all<AssistantRow>(
        `SELECT * FROM assistants WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
        [...params, page.limit, page.offset],
      );
      const items: Assistant[] = [];
      for (const row of rows) items.push(await toAssistant(storage, row));
      return { items, total };
    },
    async remove(organizationId: string, id: string, q: Queryable = storage): Promise<boolean> {
      try {
        return (await q.run('DELETE FROM assistants WHERE id = ? AND organization_id = ?', [id, organizationId])).changes > 0;
      } finally {
        // Outside a transaction the delete has committed; a caller's transaction forgets again after its commit.
        if (q === storage) forgetOrganization(organizationId);
      }
    },
  };
}

export async function assistantExists(q: Queryable, organizationId: string, id: string): Promise<boolean> {
  return (await q.get(SQL.exists, [id, organizationId])) !== undefined;
}

/** The config part of a record: what PATCH merges into and validates again. */
export function configOf(a: Assistant): AssistantConfig {
  const { id: _i, organizationId: _o, type: _t, createdAt: _c, updatedAt: _u, ...config } = a;
  return config;
}
