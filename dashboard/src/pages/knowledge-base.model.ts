import { computed, signal, type Signal, type ReadonlySignal } from '@preact/signals';
import { uploadWithProgress, type ApiClient, type Page } from '../lib/api.js';
import { asApiError, loadable, submission, type Loadable, type Submission } from '../lib/model.js';
import type { KnowledgeBase } from './knowledge-bases.model.js';

// One knowledge base: its documents (live while fetches and crawls run), uploads with
// per-file progress, text and web sources, re-sync, delete, rename and "test retrieval".

export type DocumentStatus = 'queued' | 'processing' | 'ready' | 'failed';

export interface KbDocument {
  id: string;
  knowledgeBaseId: string;
  title: string;
  url: string | null;
  format: string;
  source: 'inline' | 'file' | 'url' | 'crawl';
  status: DocumentStatus;
  error: string | null;
  progress: Record<string, number | string | null> | null;
  chunkCount: number;
  bytes: number;
  createdAt: string;
  updatedAt: string;
  syncedAt?: string | null;
}

export interface SearchHit {
  chunkId: string;
  documentId: string;
  title: string;
  url: string | null;
  page?: number;
  text: string;
  score: number;
}

export interface UploadItem {
  key: number;
  name: string;
  size: number;
  /** 0..1 of the bytes sent. */
  progress: number;
  state: 'waiting' | 'uploading' | 'done' | 'failed';
  error: string | null;
  document: KbDocument | null;
}

/** Sends one file; the browser's is XMLHttpRequest (upload progress), tests pass a fetch one. */
export type Uploader = (path: string, form: FormData, onProgress: (fraction: number) => void) => Promise<KbDocument>;

export const DOCS_PAGE_SIZE = 20;
/** How often the list is read again while a fetch or crawl is queued or running. */
export const POLL_MS = 1000;
/** Files sent at once: more would only share the same connection's bandwidth. */
export const UPLOAD_CONCURRENCY = 2;
/** The server's limits (docs/api-spec.md §6), checked again by the server. */
export const MAX_CRAWL_PAGES = 500;
export const MAX_CRAWL_DEPTH = 5;
export const ACCEPTED_FILES = '.txt,.md,.markdown,.html,.htm,.pdf,.docx';

export const isActive = (d: KbDocument): boolean => d.status === 'queued' || d.status === 'processing';

/** A short, human line for a running or finished fetch/crawl. */
export function describeProgress(d: KbDocument): string {
  const p = d.progress ?? {};
  const n = (k: string) => (typeof p[k] === 'number' ? (p[k] as number) : null);
  if (d.status === 'failed') return d.error ?? 'Failed';
  if (d.status === 'queued') return n('attempt') ? `Waiting to retry (attempt ${n('attempt')})` : 'Waiting to start';
  if (d.status === 'processing') {
    if (d.source === 'crawl') {
      const parts = [`${n('pagesIndexed') ?? 0} of up to ${n('maxPages') ?? '?'} pages indexed`];
      if (n('pagesFetched') !== null) parts.push(`${n('pagesFetched')} fetched`);
      if (n('pagesQueued')) parts.push(`${n('pagesQueued')} queued`);
      if (n('pagesFailed')) parts.push(`${n('pagesFailed')} failed`);
      return parts.join(', ');
    }
    return 'Fetching';
  }
  return typeof p.note === 'string' && p.note ? p.note : '';
}

/** Crawl completion as 0..1 when it can be told (indexed pages over the page cap). */
export function progressFraction(d: KbDocument): number | null {
  const p = d.progress ?? {};
  if (d.source !== 'crawl' || typeof p.pagesIndexed !== 'number' || typeof p.maxPages !== 'number' || p.maxPages <= 0) return null;
  return Math.min(1, p.pagesIndexed / p.maxPages);
}

/** Files sent to one path a few at a time, one row each (see uploadQueue). */
interface UploadQueue {
  /** One row per file, each with its own progress and the server's own message. */
  uploads: Signal<UploadItem[]>;
  /** Sends the files, UPLOAD_CONCURRENCY at a time; one failing file does not stop the others. Rows of earlier finished uploads go. */
  sendAll(files: File[]): Promise<void>;
  /** Drops the rows of uploads that are over. */
  clearFinished(): void;
}

function uploadQueue(uploader: Uploader, path: string): UploadQueue {
  const uploads = signal<UploadItem[]>([]);
  let uploadSeq = 0;
  const patchUpload = (key: number, patch: Partial<UploadItem>) => {
    uploads.value = uploads.value.map((u) => (u.key === key ? { ...u, ...patch } : u));
  };
  async function sendOne(item: UploadItem, file: File) {
    patchUpload(item.key, { state: 'uploading', progress: 0 });
    const form = new FormData();
    form.append('file', file, file.name);
    try {
      const doc = await uploader(path, form, (f) => patchUpload(item.key, { progress: f }));
      patchUpload(item.key, { state: 'done', progress: 1, document: doc });
    } catch (err) {
      patchUpload(item.key, { state: 'failed', error: asApiError(err).message });
    }
  }
  return {
    uploads,
    async sendAll(files) {
      const items = files.map((f) => ({
        key: ++uploadSeq,
        name: f.name,
        size: f.size,
        progress: 0,
        state: 'waiting' as const,
        error: null,
        document: null,
      }));
      uploads.value = [...uploads.value.filter((u) => u.state !== 'done'), ...items];
      let next = 0;
      const worker = async () => {
        while (next < items.length) {
          const i = next++;
          await sendOne(items[i]!, files[i]!);
        }
      };
      await Promise.all(Array.from({ length: Math.min(UPLOAD_CONCURRENCY, items.length) }, worker));
    },
    clearFinished() {
      uploads.value = uploads.value.filter((u) => u.state === 'uploading' || u.state === 'waiting');
    },
  };
}

/** One knowledge base: its documents (live status), adding by upload, text or URL, its settings and a test search. */
export interface KnowledgeBaseModel {
  kbId: string;
  kb: Loadable<KnowledgeBase>;
  /** The documents' page. */
  page: Signal<number>;
  /** One page of documents. */
  docs: Loadable<Page<KbDocument>>;
  /** A document on the page is queued or processing (the list is read again while so). */
  active: ReadonlySignal<boolean>;
  /** One row per file sent, each with its own progress and the server's own message. */
  uploads: Signal<UploadItem[]>;
  /** The "paste text" form. */
  textForm: { title: Signal<string>; content: Signal<string>; format: Signal<'text' | 'markdown'>; submit: Submission };
  /** The "add a URL" form (crawl limits when crawling). */
  urlForm: {
    url: Signal<string>;
    title: Signal<string>;
    crawl: Signal<boolean>;
    maxPages: Signal<string>;
    maxDepth: Signal<string>;
    submit: Submission;
  };
  /** The base's name and description form. */
  settings: { name: Signal<string>; description: Signal<string>; submit: Submission };
  /** The test search and its hits. */
  search: { query: Signal<string>; limit: Signal<string>; results: Signal<SearchHit[] | null>; submit: Submission };
  /** Re-syncs and deletions of documents. */
  rowAction: Submission;
  removeBase: Submission;
  /** Loads the base and the documents, fills the settings form, and keeps the list live while watched. */
  load(): Promise<void>;
  /** Reads the documents again (and schedules the next read while any is active). */
  refresh(): Promise<void>;
  /** Starts the live refresh (the page calls this on mount and `stop` on unmount). */
  watch(): void;
  /** Stops the live refresh. */
  stop(): void;
  /** Shows page `p` of the documents. */
  goTo(p: number): Promise<void>;
  /** Sends many files, a few at a time; one failing file does not stop the others. */
  uploadFiles(files: File[]): Promise<void>;
  /** Drops the upload rows that are over. */
  clearFinishedUploads(): void;
  /** Adds the pasted text as a document. */
  addText(): Promise<KbDocument | undefined>;
  /** Adds a page, or a crawl of a site, fetched by the server. */
  addUrl(): Promise<KbDocument | undefined>;
  /** Fetches a URL document again; true when queued. */
  resync(docId: string): Promise<boolean>;
  /** Deletes a document; true when done. */
  deleteDocument(docId: string): Promise<boolean>;
  /** Saves the name and description. */
  saveSettings(): Promise<KnowledgeBase | undefined>;
  /** Deletes the knowledge base; true when done. */
  deleteBase(): Promise<boolean>;
  /** Runs the test search. */
  runSearch(): Promise<SearchHit[] | undefined>;
}

export function createKnowledgeBaseModel(
  api: ApiClient,
  kbId: string,
  opts: { uploader?: Uploader; pollMs?: number } = {},
): KnowledgeBaseModel {
  const base = `/knowledge-bases/${encodeURIComponent(kbId)}`;
  const uploader: Uploader = opts.uploader ?? ((path, form, onProgress) => uploadWithProgress<KbDocument>(path, form, onProgress));
  const pollMs = opts.pollMs ?? POLL_MS;

  const kb = loadable(() => api.get<KnowledgeBase>(base));
  const page = signal(1);
  const docs = loadable(() => api.page<KbDocument>(`${base}/documents`, { page: page.value, limit: DOCS_PAGE_SIZE }));
  const active = computed(() => (docs.data.value?.items ?? []).some(isActive));

  // Live status: read the list again while anything on it is queued or processing.
  let timer: ReturnType<typeof setTimeout> | null = null;
  let watching = false;
  const schedule = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (watching && (active.value || docs.error.value?.kind === 'network')) timer = setTimeout(() => void refresh(), pollMs);
  };
  async function refresh() {
    await docs.load();
    schedule();
  }

  const fileUploads = uploadQueue(uploader, `${base}/documents`);

  const textForm = { title: signal(''), content: signal(''), format: signal<'text' | 'markdown'>('markdown'), submit: submission() };
  const urlForm = {
    url: signal(''),
    title: signal(''),
    crawl: signal(false),
    maxPages: signal('50'),
    maxDepth: signal('2'),
    submit: submission(),
  };
  const settings = { name: signal(''), description: signal(''), submit: submission() };
  const search = { query: signal(''), limit: signal('10'), results: signal<SearchHit[] | null>(null), submit: submission() };
  const rowAction = submission();
  const removeBase = submission();

  return {
    kbId,
    kb,
    page,
    docs,
    active,
    uploads: fileUploads.uploads,
    textForm,
    urlForm,
    settings,
    search,
    rowAction,
    removeBase,

    async load() {
      await Promise.all([kb.load(), docs.load()]);
      const k = kb.data.value;
      if (k) {
        settings.name.value = k.name;
        settings.description.value = k.description ?? '';
      }
      schedule();
    },
    refresh,
    watch() {
      watching = true;
      schedule();
    },
    stop() {
      watching = false;
      if (timer) clearTimeout(timer);
      timer = null;
    },
    async goTo(p: number) {
      page.value = p;
      await refresh();
    },

    async uploadFiles(files: File[]) {
      await fileUploads.sendAll(files);
      await Promise.all([refresh(), kb.load()]);
    },
    clearFinishedUploads: () => fileUploads.clearFinished(),

    async addText() {
      const doc = await textForm.submit.run(() =>
        api.post<KbDocument>(`${base}/documents`, {
          title: textForm.title.value,
          content: textForm.content.value,
          format: textForm.format.value,
        }),
      );
      if (doc) {
        textForm.title.value = '';
        textForm.content.value = '';
        await Promise.all([refresh(), kb.load()]);
      }
      return doc;
    },

    async addUrl() {
      const crawl = urlForm.crawl.value
        ? { maxPages: Number(urlForm.maxPages.value), maxDepth: Number(urlForm.maxDepth.value) }
        : undefined;
      const doc = await urlForm.submit.run(() =>
        api.post<KbDocument>(`${base}/documents`, {
          url: urlForm.url.value.trim(),
          ...(urlForm.title.value.trim() ? { title: urlForm.title.value.trim() } : {}),
          ...(crawl ? { crawl } : {}),
        }),
      );
      if (doc) {
        urlForm.url.value = '';
        urlForm.title.value = '';
        await refresh();
      }
      return doc;
    },

    async resync(docId: string) {
      const ok = await rowAction.run(() => api.post(`${base}/documents/${encodeURIComponent(docId)}/sync`));
      if (ok !== undefined) await refresh();
      return ok !== undefined;
    },

    async deleteDocument(docId: string) {
      const ok = await rowAction.run(() => api.delete(`${base}/documents/${encodeURIComponent(docId)}`));
      if (ok !== undefined) await Promise.all([refresh(), kb.load()]);
      return ok !== undefined;
    },

    async saveSettings() {
      const updated = await settings.submit.run(() =>
        api.patch<KnowledgeBase>(base, {
          name: settings.name.value,
          description: settings.description.value.trim() ? settings.description.value : null,
        }),
      );
      if (updated) kb.data.value = updated;
      return updated;
    },

    async deleteBase() {
      const ok = await removeBase.run(() => api.delete(base));
      return ok !== undefined;
    },

    async runSearch() {
      const hits = await search.submit.run(() =>
        api.post<SearchHit[]>(`${base}/search`, { query: search.query.value, limit: Number(search.limit.value) }),
      );
      if (hits) search.results.value = hits;
      return hits;
    },
  };
}
