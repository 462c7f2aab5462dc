import fs from 'node:fs';
import path from 'node:path';
import { insertApiKey } from '../api-keys/service.js';
import { PERMISSIONS } from '../auth/permissions.js';
import { hashPassword } from '../auth/passwords.js';
import { registerAccount } from '../auth/service.js';
import { assistantConfigSchema } from '../assistants/schemas.js';
import { createAssistantStore } from '../assistants/service.js';
import type { AppContext } from '../context.js';
import { createKnowledgeStore } from '../knowledge/store.js';
import type { Queryable, Tx } from '../storage/port.js';

export const DEMO_LOGIN = { email: 'demo@parley.local', password: 'parley-demo-password' } as const;

/** Set at the first seed; `seedPendingDemoTraffic` (demo/traffic.ts) clears it and writes the traffic. */
export const DEMO_TRAFFIC_PENDING = 'demo_traffic_pending';

export interface DemoInfo {
  organizationId: string;
  assistantId: string;
  knowledgeBaseId: string;
  apiKey: string;
  login: typeof DEMO_LOGIN;
}

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
export async function seedDemo(
  ctx: Pick<AppContext, 'storage'>,
  opts: { knowledgeDir: string; publicUrl: string; nowMs: number },
): Promise<DemoInfo> {
  const passwordHash = await hashPassword(DEMO_LOGIN.password);
  const at = new Date(opts.nowMs).toISOString();
  const files = fs
    .readdirSync(opts.knowledgeDir)
    .filter((f) => f.endsWith('.md'))
    .sort();
  const docs = files.map((f) => ({
    ...readKnowledgeFile(path.join(opts.knowledgeDir, f)),
    url: `${opts.publicUrl}/demo/docs/${path.basename(f, '.md')}`,
  }));
  const knowledge = createKnowledgeStore(ctx.storage);
  const assistants = createAssistantStore(ctx.storage);
  // One transaction: the account, the knowledge, the assistant and the key.
  return knowledge.write(async (w) => {
    const account = await registerAccount(
      w.tx,
      { email: DEMO_LOGIN.email, passwordHash, name: 'Demo Owner', organizationName: 'Parley Demo' },
      opts.nowMs,
    );
    const orgId = account.organization.id;
    const kb = await w.createKb(orgId, { name: 'Parley handbook', description: 'How to set up and use Parley' }, at);
    for (const doc of docs) await w.addDocument(kb.id, { ...doc, format: 'markdown' }, at);
    const assistant = await assistants.create(
      orgId,
      'web',
      assistantConfigSchema.parse({
        name: 'Parley Guide',
        description: 'Answers questions about setting up and running Parley.',
        knowledgeBases: [{ id: kb.id, priority: 5 }],
        variables: { company_name: 'Parley' },
        templates: [{ trigger: 'hello', match: 'exact', response: 'Hello! Ask me anything about setting up and using {{company_name}}.' }],
        fallback: { handoff: { enabled: true, email: 'support@parley.local' } },
        widget: { welcomeMessage: 'Hi! I am the Parley Guide. Ask me how to embed the widget, create API keys or connect Slack.' },
      }),
      at,
      w.tx,
    );
    const { record, key } = await insertApiKey(
      w.tx,
      orgId,
      {
        name: 'Demo key',
        permissions: [...PERMISSIONS],
        assistantId: null,
        allowedIps: [],
        rateLimit: { perMinute: null, perDay: null },
        expiresAt: null,
      },
      at,
    );
    await setSetting(w.tx, 'demo_assistant_id', assistant.id);
    await setSetting(w.tx, 'demo_api_key_id', record.id);
    // Demo traffic for the analytics pages is written once, after listen (demo/traffic.ts).
    await setSetting(w.tx, DEMO_TRAFFIC_PENDING, '1');
    return { organizationId: orgId, assistantId: assistant.id, knowledgeBaseId: kb.id, apiKey: key, login: DEMO_LOGIN };
  });
}

const setSetting = (tx: Tx, key: string, value: string) =>
  tx.run('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [key, value]);

/**
 * Keys are stored hashed, so a restart cannot print the old demo key again: it issues a fresh
 * one and revokes the previous, keeping the ready-to-paste curl line honest.
 */
export async function reissueDemoKey(
  ctx: Pick<AppContext, 'storage'>,
  nowMs: number,
): Promise<{ apiKey: string; assistantId: string } | null> {
  const get = async (q: Queryable, key: string) =>
    (await q.get<{ value: string }>('SELECT value FROM settings WHERE key = ?', [key]))?.value;
  const assistantId = await get(ctx.storage, 'demo_assistant_id');
  const org = assistantId
    ? await ctx.storage.get<{ organization_id: string }>('SELECT organization_id FROM assistants WHERE id = ?', [assistantId])
    : undefined;
  if (!assistantId || !org) return null;
  const at = new Date(nowMs).toISOString();
  return ctx.storage.tx(async (tx) => {
    const previous = await get(tx, 'demo_api_key_id');
    if (previous) await tx.run('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL', [at, previous]);
    const { record, key } = await insertApiKey(
      tx,
      org.organization_id,
      {
        name: 'Demo key',
        permissions: [...PERMISSIONS],
        assistantId: null,
        allowedIps: [],
        rateLimit: { perMinute: null, perDay: null },
        expiresAt: null,
      },
      at,
    );
    await setSetting(tx, 'demo_api_key_id', record.id);
    return { apiKey: key, assistantId };
  });
}
