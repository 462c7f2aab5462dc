import type { ApiClient } from '../lib/api.js';
import { ApiError } from '../lib/api.js';
import { loadable } from '../lib/model.js';
import type { ApiKeyRecord, Assistant, KnowledgeBaseSummary } from './assistants.types.js';

// The first-run checklist, each step ticked from real data:
// a knowledge base → knowledge in it → an assistant → a playground conversation → deployed
// (a widget origin, a bot configured, or an API key that can chat).

export type StepId = 'knowledge-base' | 'knowledge' | 'assistant' | 'playground' | 'deploy';
export interface Step {
  id: StepId;
  title: string;
  done: boolean;
  detail: string;
  href: string;
  action: string;
}

export interface OverviewFacts {
  assistants: Assistant[];
  assistantTotal: number;
  knowledgeBases: KnowledgeBaseSummary[];
  knowledgeBaseTotal: number;
  documents: number;
  playgroundConversations: number | null;
  chatKeys: number | null;
}

/** A list the caller may not read (a viewer and API keys) counts as unknown, not as an error. */
async function orNullIfForbidden<T>(p: Promise<T>): Promise<T | null> {
  try {
    return await p;
  } catch (err) {
    if (err instanceof ApiError && err.kind === 'forbidden') return null;
    throw err;
  }
}

export async function loadFacts(api: ApiClient): Promise<OverviewFacts> {
  const [assistants, kbs, playground, keys] = await Promise.all([
    api.page<Assistant>('/assistants', { limit: 100 }),
    api.page<KnowledgeBaseSummary>('/knowledge-bases', { limit: 100 }),
    orNullIfForbidden(api.page('/analytics/conversations', { channel: 'playground', source: 'playground', limit: 1 })),
    orNullIfForbidden(api.page<ApiKeyRecord>('/api-keys', { limit: 100 })),
  ]);
  return {
    assistants: assistants.items,
    assistantTotal: assistants.total,
    knowledgeBases: kbs.items,
    knowledgeBaseTotal: kbs.total,
    documents: kbs.items.reduce((n, k) => n + (k.documentCount ?? 0), 0),
    playgroundConversations: playground ? playground.total : null,
    chatKeys: keys ? keys.items.filter((k) => k.permissions.includes('chat')).length : null,
  };
}

/** Where an assistant is live: widget origins, a configured bot, or keys that can chat. */
export function deployments(facts: OverviewFacts): string[] {
  const out: string[] = [];
  if (facts.assistants.some((a) => a.widget.allowedOrigins.length > 0)) out.push('widget');
  const bots = (['discord', 'slack', 'teams'] as const).filter((c) =>
    facts.assistants.some((a) => a[c].botName || a[c].channels.length > 0),
  );
  out.push(...bots);
  if ((facts.chatKeys ?? 0) > 0) out.push('API');
  return out;
}

export function checklist(f: OverviewFacts): Step[] {
  const firstKb = f.knowledgeBases[0];
  const firstAssistant = f.assistants[0];
  const live = deployments(f);
  return [
    {
      id: 'knowledge-base',
      title: 'Create a knowledge base',
      done: f.knowledgeBaseTotal > 0,
      detail:
        f.knowledgeBaseTotal > 0
          ? `${f.knowledgeBaseTotal} knowledge ${f.knowledgeBaseTotal === 1 ? 'base' : 'bases'}`
          : 'A place for the documents your assistant answers from.',
      href: '/knowledge',
      action: 'Knowledge bases',
    },
    {
      id: 'knowledge',
      title: 'Add knowledge',
      done: f.documents > 0,
      detail:
        f.documents > 0
          ? `${f.documents} ${f.documents === 1 ? 'document' : 'documents'}`
          : 'Upload files, paste text, or crawl your site.',
      href: firstKb ? `/knowledge/${firstKb.id}` : '/knowledge',
      action: firstKb ? `Add to ${firstKb.name}` : 'Knowledge bases',
    },
    {
      id: 'assistant',
      title: 'Create an assistant',
      done: f.assistantTotal > 0,
      detail:
        f.assistantTotal > 0
          ? `${f.assistantTotal} ${f.assistantTotal === 1 ? 'assistant' : 'assistants'}`
          : 'Connect it to your knowledge and choose how it answers.',
      href: '/assistants',
      action: 'Assistants',
    },
    {
      id: 'playground',
      title: 'Try it in the playground',
      done: (f.playgroundConversations ?? 0) > 0,
      detail:
        f.playgroundConversations === null
          ? 'Ask it a few questions and see why it answers as it does.'
          : f.playgroundConversations > 0
            ? `${f.playgroundConversations} playground ${f.playgroundConversations === 1 ? 'conversation' : 'conversations'}`
            : 'Ask it a few questions and see why it answers as it does.',
      href: firstAssistant ? `/playground/${firstAssistant.id}` : '/playground',
      action: 'Open the playground',
    },
    {
      id: 'deploy',
      title: 'Deploy: widget, bot or API',
      done: live.length > 0,
      detail: live.length
        ? `Live through ${live.join(', ')}`
        : "Add your site to the widget's allowed origins, set up a bot, or create an API key.",
      href: firstAssistant ? `/assistants/${firstAssistant.id}/widget` : '/assistants',
      action: firstAssistant ? 'Widget and channels' : 'Assistants',
    },
  ];
}

export function createOverviewModel(api: ApiClient) {
  const facts = loadable(() => loadFacts(api));
  return { facts, load: () => facts.load() };
}
