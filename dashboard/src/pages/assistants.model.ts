import { signal, type Signal } from '@preact/signals';
import type { ApiClient, Page } from '../lib/api.js';
import { loadable, submission, type Loadable, type Submission } from '../lib/model.js';
import type { Assistant, AssistantType, KnowledgeBaseSummary } from './assistants.types.js';

// The assistants list (name, type, knowledge bases, conversations in the last 7 days) and the
// create dialog (type chosen at creation, it cannot change later).

/** The assistants list and the "new assistant" form. */
export interface AssistantsModel {
  page: Signal<number>;
  /** One page of assistants (20 a page). */
  assistants: Loadable<Page<Assistant>>;
  /** Names for the knowledge base ids the assistants carry (first 100). */
  knowledgeBases: Loadable<KnowledgeBaseSummary[]>;
  /** The new assistant's name and type, as chosen. */
  draft: { name: Signal<string>; type: Signal<AssistantType> };
  creation: Submission;
  /** Loads the assistants and the knowledge bases' names. */
  load(): Promise<void>;
  /** Shows page `p`. */
  goTo(p: number): Promise<void>;
  /** Creates the assistant; resolves to it (the page then opens its editor) or undefined with the error shown. */
  create(): Promise<Assistant | undefined>;
  /** A knowledge base's name by id (the id itself when unknown). */
  kbName(id: string): string;
}

export function createAssistantsModel(api: ApiClient): AssistantsModel {
  const page = signal(1);
  const assistants = loadable(() => api.page<Assistant>('/assistants', { page: page.value, limit: 20 }));
  // Names for the knowledge base ids the assistants carry.
  const knowledgeBases = loadable(async () => (await api.page<KnowledgeBaseSummary>('/knowledge-bases', { limit: 100 })).items);
  const draft = { name: signal(''), type: signal<AssistantType>('web') };
  const creation = submission();

  async function load(): Promise<void> {
    await Promise.all([assistants.load(), knowledgeBases.load()]);
  }
  async function goTo(p: number): Promise<void> {
    page.value = p;
    await assistants.load();
  }
  /** Creates the assistant; resolves to it (the page then opens its editor) or undefined with the error shown. */
  async function create(): Promise<Assistant | undefined> {
    const created = await creation.run(() => api.post<Assistant>('/assistants', { name: draft.name.value, type: draft.type.value }));
    if (created) {
      draft.name.value = '';
      draft.type.value = 'web';
    }
    return created;
  }
  const kbName = (id: string): string => knowledgeBases.data.value?.find((k) => k.id === id)?.name ?? id;
  return { page, assistants, knowledgeBases, draft, creation, load, goTo, create, kbName };
}
export type { Page };
