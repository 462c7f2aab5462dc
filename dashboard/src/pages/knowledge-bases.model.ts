import { signal, type Signal } from '@preact/signals';
import type { ApiClient, Page } from '../lib/api.js';
import { loadable, submission, type Loadable, type Submission } from '../lib/model.js';
import type { ApiItem } from '../api/types.js';

// The knowledge bases list and the "new base" form (docs/api-spec.md §6: /v1/knowledge-bases).

export type KnowledgeBase = ApiItem<'getKnowledgeBases'>;

export const KB_PAGE_SIZE = 20;

/** The knowledge bases list and the "new base" form. */
export interface KnowledgeBasesModel {
  page: Signal<number>;
  /** One page of the organization's knowledge bases. */
  list: Loadable<Page<KnowledgeBase>>;
  /** The new base's name, as typed. */
  name: Signal<string>;
  /** The new base's description, as typed. */
  description: Signal<string>;
  create: Submission;
  /** Shows page `p`. */
  goTo(p: number): Promise<void>;
  /** Creates the base; the form keeps what was typed when the server refuses it. */
  createBase(): Promise<KnowledgeBase | undefined>;
}

export function createKnowledgeBasesModel(api: ApiClient): KnowledgeBasesModel {
  const page = signal(1);
  const list = loadable(() => api.page<KnowledgeBase>('/knowledge-bases', { page: page.value, limit: KB_PAGE_SIZE }));
  const name = signal('');
  const description = signal('');
  const create = submission();

  return {
    page,
    list,
    name,
    description,
    create,
    async goTo(p: number) {
      page.value = p;
      await list.load();
    },
    async createBase(): Promise<KnowledgeBase | undefined> {
      const kb = await create.run(() =>
        api.post<KnowledgeBase>('/knowledge-bases', {
          name: name.value,
          ...(description.value.trim() ? { description: description.value } : {}),
        }),
      );
      if (kb) {
        name.value = '';
        description.value = '';
        await list.load();
      }
      return kb;
    },
  };
}
export type { Page };
