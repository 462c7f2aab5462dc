/**
 * The product's own docs (demo/knowledge) keep answering well through the real chat path
 * (retriever, extractive provider, confidence, default threshold): procedural questions get
 * their steps or code, factoid ones a short sentence with the asked span in bold, and a question
 * the docs do not cover falls back.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assistantConfigSchema } from '../assistants/schemas.js';
import { createAssistantStore, type Assistant } from '../assistants/service.js';
import { createChatService, type ChatService } from '../chat/service.js';
import { createConversationStore } from '../conversations/store.js';
import { migrate } from '../db/migrate.js';
import { openDb } from '../db/open.js';
import { createRetriever } from '../knowledge/retrieval.js';
import { createKnowledgeStore } from '../knowledge/store.js';
import { systemClock } from '../lib/clock.js';
import { REPO_ROOT } from '../paths.js';
import { createSqliteStorage } from '../storage/sqlite.js';
import { createWebhookEvents } from '../webhooks/events.js';
import { createExtractiveProvider } from './providers/extractive.js';

const AT = '2026-01-01T00:00:00.000Z';
let chat: ChatService;
let assistant: Assistant;

beforeAll(async () => {
  const db = openDb(':memory:');
  migrate(db);
  const storage = createSqliteStorage(db);
  db.prepare("INSERT INTO organizations (id, name, plan, created_at) VALUES ('org_demo', 'Demo', 'free', ?)").run(AT);
  const store = createKnowledgeStore(storage);
  const kb = await store.createKb('org_demo', { name: 'Parley handbook', description: null }, AT);
  const dir = path.join(REPO_ROOT, 'demo', 'knowledge');
  for (const f of fs
    .readdirSync(dir)
    .filter((x) => x.endsWith('.md'))
    .sort()) {
    const content = fs.readFileSync(path.join(dir, f), 'utf8');
    await store.addDocument(
      kb.id,
      { title: /^#\s+(.+)$/m.exec(content)?.[1] ?? f, content, format: 'markdown', url: `https://docs.example.com/${f}` },
      AT,
    );
  }
  // Schema defaults: the extractive provider and the default threshold 0.35.
  assistant = await createAssistantStore(storage).create(
    'org_demo',
    'api',
    assistantConfigSchema.parse({ name: 'Guide', knowledgeBases: [{ id: kb.id, priority: 5 }] }),
    AT,
  );
  chat = createChatService({
    storage,
    clock: systemClock,
    retriever: createRetriever(storage),
    conversations: createConversationStore(storage),
    providers: { extractive: createExtractiveProvider() },
    webhooks: createWebhookEvents(storage, systemClock),
  });
});

const ask = (message: string) => chat.chat({ assistant, message, sessionId: null, metadata: {}, channel: 'api' });

describe('answers from the demo knowledge', () => {
  it('gives the embed code for "How do I add the chat widget to my website?"', async () => {
    const r = await ask('How do I add the chat widget to my website?');
    expect(r.fallback).toBe(false);
    expect(r.confidence).toBeGreaterThan(0.5);
    expect(r.response).toContain('<script src=');
    expect(r.sources[0]?.title).toBe('Adding the chat widget to your website');
  });

  it('answers the widget e2e question with widget setup text and a source', async () => {
    const r = await ask('How do I embed the widget on my site?');
    expect(r.fallback).toBe(false);
    expect(r.response.length).toBeGreaterThan(40);
    expect(r.response).toMatch(/widget/i);
    expect(r.sources[0]?.title).toBe('Adding the chat widget to your website');
  });

  it('takes every sentence of the embed answer from the widget doc, none from another that shares "embed"', async () => {
    const r = await ask('How do I embed the widget on my site?');
    const widgetDoc = fs.readFileSync(path.join(REPO_ROOT, 'demo', 'knowledge', '02-chat-widget.md'), 'utf8');
    expect(r.response).not.toMatch(/discord/i);
    // Each sentence of the answer, markdown marks aside, is in the widget doc.
    const flat = (s: string) =>
      s
        .replace(/[*`#>-]/g, '')
        .replace(/\s+/g, ' ')
        .trim();
    for (const sentence of r.response
      .split(/(?<=[.!?])\s+|\n+/)
      .map(flat)
      .filter((s) => s.length > 20)) {
      expect(flat(widgetDoc)).toContain(sentence.replace(/\.$/, ''));
    }
  });

  it('answers the widget e2e\'s cross-origin question "How do I connect Slack?" from the Slack connector doc', async () => {
    // widget/e2e/appearance.e2e.test.ts waits for this answer's source: a change to the answerer
    // that makes it fall back shows here first (session 5's sentence weights did: 0.45 -> 0.32).
    const r = await ask('How do I connect Slack?');
    expect(r.fallback).toBe(false);
    expect(r.response).toMatch(/slack/i);
    expect(r.sources.length).toBeGreaterThan(0);
  });

  it('gives the rotation call for "How do I rotate an API key?"', async () => {
    const r = await ask('How do I rotate an API key?');
    expect(r.fallback).toBe(false);
    expect(r.response).toContain('POST /v1/api-keys/<key_id>/rotate');
  });

  it('answers a factoid question with one short sentence and the number in bold', async () => {
    const r = await ask('How many requests per minute does the free plan allow?');
    expect(r.fallback).toBe(false);
    expect(r.response).toContain('**60 requests**');
    expect(r.response.length).toBeLessThan(400);
  });

  it('falls back on "Do you sell gift cards?", one word of which ("card") an unrelated passage holds', async () => {
    const r = await ask('Do you sell gift cards?');
    expect(r.fallback).toBe(true);
  });

  it('falls back on a question the docs do not cover', async () => {
    const r = await ask('Which football team won the 1998 world cup?');
    expect(r.fallback).toBe(true);
    expect(r.confidence).toBeLessThan(0.35);
  });
});
