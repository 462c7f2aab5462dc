import fs from 'node:fs';
import path from 'node:path';
import { insertApiKey } from '../api-keys/service.js';
import { PERMISSIONS } from '../auth/permissions.js';
import { hashPassword } from '../auth/passwords.js';
import { registerAccount } from '../auth/service.js';
import { assistantConfigSchema } from '../assistants/schemas.js';
import { createAssistantStore } from '../assistants/service.js';
import type { Db } from '../db/open.js';
import { createKnowledgeStore } from '../knowledge/store.js';

export const DEMO_LOGIN = { email: 'demo@parley.local', password: 'parley-demo-password' } as const;

/** Set at the first seed; `seedPendingDemoTraffic` (demo/traffic.ts) clears it and writes the traffic. */
export const DEMO_TRAFFIC_PENDING = 'demo_traffic_pending';

export interface DemoInfo { organizationId: string; assistantId: string; knowledgeBaseId: string; apiKey: string; login: typeof DEMO_LOGIN }

/** A markdown file's first `# Heading` is its title; the rest is its content. */
function readKnowledgeFile(file: string): { title: string; content: string } {
  const text = fs.readFileSync(file, 'utf8');
  const heading = /^#\s+(.+)$/m.exec(text);
  return { title: heading?.[1]?.trim() ?? path.basename(file, '.md'), content: text };
}

/**
 * Seeds a demo organization: a user, a knowledge base from demo/knowledge/*.md (how to use
 * Parley itself), an assistant that answers from it, and an API key. Returns the plaintext key
 * once, like the API does.
 */
export async function seedDemo(db: Db, opts: { knowledgeDir: string; publicUrl: string; nowMs: number }): Promise<DemoInfo> {
  const passwordHash = await hashPassword(DEMO_LOGIN.password);
  const at = new Date(opts.nowMs).toISOString();
  const files = fs.readdirSync(opts.knowledgeDir).filter((f) => f.endsWith('.md')).sort();
  const knowledge = createKnowledgeStore(db);
  const assistants = createAssistantStore(db);
  return db.transaction(() => {
    const account = registerAccount(db, { email: DEMO_LOGIN.email, passwordHash, name: 'Demo Owner', organizationName: 'Parley Demo' }, opts.nowMs);
    const orgId = account.organization.id;
    const kb = knowledge.createKb(orgId, { name: 'Parley handbook', description: 'How to set up and use Parley' }, at);
    for (const f of files) {
      const doc = readKnowledgeFile(path.join(opts.knowledgeDir, f));
      knowledge.addDocument(kb.id, { ...doc, format: 'markdown', url: `${opts.publicUrl}/demo/docs/${path.basename(f, '.md')}` }, at);
    }
    const assistant = assistants.create(orgId, 'web', assistantConfigSchema.parse({
      name: 'Parley Guide',
      description: 'Answers questions about setting up and running Parley.',
      knowledgeBases: [{ id: kb.id, priority: 5 }],
      variables: { company_name: 'Parley' },
      templates: [{ trigger: 'hello', match: 'exact', response: 'Hello! Ask me anything about setting up and using {{company_name}}.' }],
      fallback: { handoff: { enabled: true, email: 'support@parley.local' } },
      widget: { welcomeMessage: 'Hi! I am the Parley Guide. Ask me how to embed the widget, create API keys or connect Slack.' },
    }), at);
    const { record, key } = insertApiKey(db, orgId, {
      name: 'Demo key', permissions: [...PERMISSIONS], assistantId: null, allowedIps: [], rateLimit: { perMinute: null, perDay: null }, expiresAt: null,
    }, at);
    const setting = db.prepare('INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)');
    setting.run('demo_assistant_id', assistant.id);
    setting.run('demo_api_key_id', record.id);
    // Demo traffic for the analytics pages is written once, after listen (demo/traffic.ts).
    setting.run(DEMO_TRAFFIC_PENDING, '1');
    return { organizationId: orgId, assistantId: assistant.id, knowledgeBaseId: kb.id, apiKey: key, login: DEMO_LOGIN };
  })();
}

/**
 * Keys are stored hashed, so a restart cannot print the old demo key again: it issues a fresh
 * one and revokes the previous, keeping the ready-to-paste curl line honest.
 */
export function reissueDemoKey(db: Db, nowMs: number): { apiKey: string; assistantId: string } | null {
  const get = (key: string) => (db.prepare('SELECT value FROM settings WHERE key = ?').get(key) as { value: string } | undefined)?.value;
  const assistantId = get('demo_assistant_id');
  const org = assistantId ? (db.prepare('SELECT organization_id FROM assistants WHERE id = ?').get(assistantId) as { organization_id: string } | undefined) : undefined;
  if (!assistantId || !org) return null;
  const at = new Date(nowMs).toISOString();
  return db.transaction(() => {
    const previous = get('demo_api_key_id');
    if (previous) db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(at, previous);
    const { record, key } = insertApiKey(db, org.organization_id, {
      name: 'Demo key', permissions: [...PERMISSIONS], assistantId: null, allowedIps: [], rateLimit: { perMinute: null, perDay: null }, expiresAt: null,
    }, at);
    db.prepare("INSERT OR REPLACE INTO settings (key, value) VALUES ('demo_api_key_id', ?)").run(record.id);
    return { apiKey: key, assistantId };
  })();
}
