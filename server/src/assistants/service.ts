import { notFound } from '../http/errors.js';
import { newId } from '../lib/ids.js';
import { parseJson } from '../lib/json.js';
import { memoByText } from '../lib/memo.js';
import type { Queryable, Storage, Tx } from '../storage/port.js';
import type { AssistantConfig, AssistantType } from './schemas.js';

export interface Assistant extends AssistantConfig {
  id: string;
  organizationId: string;
  type: AssistantType;
  createdAt: string;
  updatedAt: string;
}

interface AssistantRow { id: string; organization_id: string; type: AssistantType; name: string; config: string; created_at: string; updated_at: string }
interface LinkRow { knowledge_base_id: string; priority: number }
/** An assistant row with one of its links (none: the link columns are null). */
type LinkedRow = AssistantRow & { [K in keyof LinkRow]: LinkRow[K] | null };

type StoredConfig = Omit<AssistantConfig, 'name' | 'knowledgeBases'>;

const SQL = {
  // The row and its links in one statement (every chat request reads it): one row per link.
  byIdLinked: `SELECT a.id, a.organization_id, a.type, a.name, a.config, a.created_at, a.updated_at, l.knowledge_base_id, l.priority
    FROM assistants a LEFT JOIN assistant_knowledge_bases l ON l.assistant_id = a.id
    WHERE a.id = ? AND a.organization_id = ? ORDER BY l.position`,
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
 */
const storedConfig = memoByText((text: string): StoredConfig => deepFreeze(parseJson<StoredConfig>(text, {} as StoredConfig)), 1_000);

/**
 * Assistants and their knowledge-base links. Writes that must commit with something else (an
 * audit entry, a webhook event) take the caller's `Tx`; reads take any `Queryable`.
 */
export function createAssistantStore(storage: Storage) {
  function assemble(row: AssistantRow, links: readonly LinkRow[]): Assistant {
    return {
      id: row.id, organizationId: row.organization_id, type: row.type, name: row.name, ...storedConfig(row.config),
      knowledgeBases: links.map((l) => ({ id: l.knowledge_base_id, priority: l.priority })),
      createdAt: row.created_at, updatedAt: row.updated_at,
    } as Assistant;
  }

  async function toAssistant(q: Queryable, row: AssistantRow): Promise<Assistant> {
    return assemble(row, await q.all<LinkRow>(SQL.links, [row.id]));
  }

  async function get(q: Queryable, organizationId: string, id: string): Promise<Assistant | null> {
    const rows = await q.all<LinkedRow>(SQL.byIdLinked, [id, organizationId]);
    const [row] = rows;
    if (!row) return null;
    return assemble(row, rows.flatMap((r) => (r.knowledge_base_id === null ? [] : [{ knowledge_base_id: r.knowledge_base_id, priority: r.priority as number }])));
  }

  async function writeLinks(tx: Tx, assistantId: string, organizationId: string, kbs: AssistantConfig['knowledgeBases']): Promise<void> {
    for (const kb of kbs) if (!(await tx.get(SQL.kbInOrg, [kb.id, organizationId]))) throw notFound(`Knowledge base ${kb.id}`);
    await tx.run('DELETE FROM assistant_knowledge_bases WHERE assistant_id = ?', [assistantId]);
    for (const [i, kb] of kbs.entries()) {
      await tx.run('INSERT INTO assistant_knowledge_bases (assistant_id, knowledge_base_id, priority, position) VALUES (?, ?, ?, ?)', [assistantId, kb.id, kb.priority, i]);
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
    await tx.run('INSERT INTO assistants (id, organization_id, type, name, config, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [id, organizationId, type, name, JSON.stringify(stored), at, at]);
    await writeLinks(tx, id, organizationId, kbs);
    return await get(tx, organizationId, id) as Assistant;
  }

  async function replace(tx: Tx, organizationId: string, id: string, config: AssistantConfig, at: string): Promise<Assistant> {
    const { name, stored, kbs } = splitConfig(config);
    await tx.run('UPDATE assistants SET name = ?, config = ?, updated_at = ? WHERE id = ? AND organization_id = ?', [name, JSON.stringify(stored), at, id, organizationId]);
    await writeLinks(tx, id, organizationId, kbs);
    return await get(tx, organizationId, id) as Assistant;
  }

  return {
    /** `q`: a transaction reading its own writes; the storage by default. */
    get(organizationId: string, id: string, q: Queryable = storage): Promise<Assistant | null> {
      return get(q, organizationId, id);
    },
    /** `tx`: the caller's transaction (with its audit entry); without it, a transaction of its own. */
    create(organizationId: string, type: AssistantType, config: AssistantConfig, at: string, tx?: Tx): Promise<Assistant> {
      return tx ? create(tx, organizationId, type, config, at) : storage.tx((own) => create(own, organizationId, type, config, at));
    },
    /** `tx`: the caller's transaction (with its audit entry and webhook event); without it, a transaction of its own. */
    replace(organizationId: string, id: string, config: AssistantConfig, at: string, tx?: Tx): Promise<Assistant> {
      return tx ? replace(tx, organizationId, id, config, at) : storage.tx((own) => replace(own, organizationId, id, config, at));
    },
    async list(organizationId: string, onlyId: string | null, page: { limit: number; offset: number }): Promise<{ items: Assistant[]; total: number }> {
      // Built in TypeScript rather than `? IS NULL OR …`: PostgreSQL cannot type a parameter that is only tested for NULL.
      const where = onlyId === null ? 'organization_id = ?' : 'organization_id = ? AND id = ?';
      const params = onlyId === null ? [organizationId] : [organizationId, onlyId];
      const total = (await storage.get<{ n: number }>(`SELECT count(*) AS n FROM assistants WHERE ${where}`, params))?.n ?? 0;
      // Newest first; ids sort by creation time, so they break ties within one millisecond.
      const rows = await storage.all<AssistantRow>(`SELECT * FROM assistants WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`, [...params, page.limit, page.offset]);
      const items: Assistant[] = [];
      for (const row of rows) items.push(await toAssistant(storage, row));
      return { items, total };
    },
    /** `q`: the caller's transaction (with its audit entry); the storage by default. */
    async remove(organizationId: string, id: string, q: Queryable = storage): Promise<boolean> {
      return (await q.run('DELETE FROM assistants WHERE id = ? AND organization_id = ?', [id, organizationId])).changes > 0;
    },
  };
}

export type AssistantStore = ReturnType<typeof createAssistantStore>;

export async function assistantExists(q: Queryable, organizationId: string, id: string): Promise<boolean> {
  return (await q.get(SQL.exists, [id, organizationId])) !== undefined;
}

/** The config part of a record: what PATCH merges into and validates again. */
export function configOf(a: Assistant): AssistantConfig {
  const { id: _i, organizationId: _o, type: _t, createdAt: _c, updatedAt: _u, ...config } = a;
  return config;
}
