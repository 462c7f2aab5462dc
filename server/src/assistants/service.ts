import type { Db } from '../db/open.js';
import { notFound } from '../http/errors.js';
import { newId } from '../lib/ids.js';
import { parseJson } from '../lib/json.js';
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

type StoredConfig = Omit<AssistantConfig, 'name' | 'knowledgeBases'>;

export function createAssistantStore(db: Db) {
  const byId = db.prepare<[string, string], AssistantRow>('SELECT * FROM assistants WHERE id = ? AND organization_id = ?');
  const links = db.prepare<[string], LinkRow>('SELECT knowledge_base_id, priority FROM assistant_knowledge_bases WHERE assistant_id = ? ORDER BY position');
  const kbInOrg = db.prepare<[string, string], { id: string }>('SELECT id FROM knowledge_bases WHERE id = ? AND organization_id = ?');

  function toAssistant(row: AssistantRow): Assistant {
    const config = parseJson<StoredConfig>(row.config, {} as StoredConfig);
    return {
      id: row.id, organizationId: row.organization_id, type: row.type, name: row.name, ...config,
      knowledgeBases: links.all(row.id).map((l) => ({ id: l.knowledge_base_id, priority: l.priority })),
      createdAt: row.created_at, updatedAt: row.updated_at,
    } as Assistant;
  }

  function writeLinks(assistantId: string, organizationId: string, kbs: AssistantConfig['knowledgeBases']): void {
    for (const kb of kbs) if (!kbInOrg.get(kb.id, organizationId)) throw notFound(`Knowledge base ${kb.id}`);
    db.prepare('DELETE FROM assistant_knowledge_bases WHERE assistant_id = ?').run(assistantId);
    const insert = db.prepare('INSERT INTO assistant_knowledge_bases (assistant_id, knowledge_base_id, priority, position) VALUES (?, ?, ?, ?)');
    kbs.forEach((kb, i) => insert.run(assistantId, kb.id, kb.priority, i));
  }

  const splitConfig = (config: AssistantConfig): { name: string; stored: StoredConfig; kbs: AssistantConfig['knowledgeBases'] } => {
    const { name, knowledgeBases, ...stored } = config;
    // Template ids make single templates addressable (analytics, the dashboard).
    stored.templates = stored.templates.map((t) => ({ ...t, id: t.id ?? newId('tpl') }));
    return { name, stored, kbs: knowledgeBases };
  };

  return {
    get(organizationId: string, id: string): Assistant | null {
      const row = byId.get(id, organizationId);
      return row ? toAssistant(row) : null;
    },
    create(organizationId: string, type: AssistantType, config: AssistantConfig, at: string): Assistant {
      const id = newId('asst');
      const { name, stored, kbs } = splitConfig(config);
      db.transaction(() => {
        db.prepare('INSERT INTO assistants (id, organization_id, type, name, config, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
          .run(id, organizationId, type, name, JSON.stringify(stored), at, at);
        writeLinks(id, organizationId, kbs);
      })();
      return this.get(organizationId, id) as Assistant;
    },
    replace(organizationId: string, id: string, config: AssistantConfig, at: string): Assistant {
      const { name, stored, kbs } = splitConfig(config);
      db.transaction(() => {
        db.prepare('UPDATE assistants SET name = ?, config = ?, updated_at = ? WHERE id = ? AND organization_id = ?').run(name, JSON.stringify(stored), at, id, organizationId);
        writeLinks(id, organizationId, kbs);
      })();
      return this.get(organizationId, id) as Assistant;
    },
    list(organizationId: string, onlyId: string | null, page: { limit: number; offset: number }): { items: Assistant[]; total: number } {
      const where = 'organization_id = ? AND (? IS NULL OR id = ?)';
      const total = (db.prepare(`SELECT count(*) AS n FROM assistants WHERE ${where}`).get(organizationId, onlyId, onlyId) as { n: number }).n;
      const rows = db.prepare(`SELECT * FROM assistants WHERE ${where} ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?`)
        .all(organizationId, onlyId, onlyId, page.limit, page.offset) as AssistantRow[];
      return { items: rows.map(toAssistant), total };
    },
    remove(organizationId: string, id: string): boolean {
      return db.prepare('DELETE FROM assistants WHERE id = ? AND organization_id = ?').run(id, organizationId).changes > 0;
    },
  };
}

export type AssistantStore = ReturnType<typeof createAssistantStore>;

export function assistantExists(db: Db, organizationId: string, id: string): boolean {
  return db.prepare('SELECT 1 FROM assistants WHERE id = ? AND organization_id = ?').get(id, organizationId) !== undefined;
}

/** The config part of a record: what PATCH merges into and validates again. */
export function configOf(a: Assistant): AssistantConfig {
  const { id: _i, organizationId: _o, type: _t, createdAt: _c, updatedAt: _u, ...config } = a;
  return config;
}
