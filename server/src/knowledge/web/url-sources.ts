import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { nowIso } from '../../context.js';
import { AppError, notFound } from '../../http/errors.js';
import { parseInput } from '../../http/validate.js';
import type { Logger } from '../../lib/logger.js';
import type { DocumentPart, DocumentProgress, DocumentRecord, KnowledgeStore } from '../store.js';
import { crawlSite } from './crawler.js';
import { IngestError } from './ingest-error.js';
import { fetchSinglePage } from './single-page.js';
import { FetchError, createFetcher, type Fetcher, type FetcherOptions } from './fetcher.js';
import { swapInContent, type FetchedContent } from './content-swap.js';
import type { IngestJob, JobFailure, JobKind, JobLease } from './job-types.js';
import { createJobRunner } from './jobs.js';
import { normalizeUrl } from './urls.js';

/**
 * Documents fetched from the web (docs/api-spec.md §6): `{url}` is one page, `{url, crawl}` a crawl of
 * its site into one document whose parts are the pages. Both are durable background jobs
 * (`jobs.ts`); a single page is usually quick, so the POST waits a little for it.
 */

export const MAX_CRAWL_PAGES = 500;
export const MAX_CRAWL_DEPTH = 5;

const crawlSchema = z.strictObject({
  maxPages: z.int().min(1).max(MAX_CRAWL_PAGES).default(50),
  maxDepth: z.int().min(0).max(MAX_CRAWL_DEPTH).default(2),
});
export const urlDocumentSchema = z.strictObject({
  url: z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).max(2048),
  crawl: crawlSchema.nullish(),
  title: z.string().trim().min(1).max(500).nullish(),
});

/** What a document fetched from the web remembers about how (its `source_options`). */
type UrlSourceOptions = { crawl?: { maxPages: number; maxDepth: number }; title?: string };

/** Knobs for tests and benchmarks; the defaults are the production values. */
export interface UrlSourceTuning {
  /** Fake DNS (the address guard still judges its answers). */
  resolve?: FetcherOptions['resolve'];
  /** Replaces the guarded lookup (fetcher tests only). */
  lookup?: FetcherOptions['lookup'];
  fetchTimeoutMs?: number;
  maxBytes?: number;
  /** Jobs worked at once (2). */
  concurrency?: number;
  /** Parallel fetches within one crawl (4). */
  crawlConcurrency?: number;
  /** Longest robots.txt Crawl-delay honoured, ms (2000). */
  maxCrawlDelayMs?: number;
  /** How long POST waits for a single page before answering `queued`/`processing` (10 s). */
  waitMs?: number;
  pollMs?: number;
  retryDelaysMs?: number[];
  /** Least time between two progress writes of one job (250 ms). */
  progressIntervalMs?: number;
  /** Lease of a running job (WEB_JOB_LEASE_MS, 30 s): how long a job of a dead instance waits before another takes it (jobs.ts). */
  leaseMs?: number;
}

/** A job's progress writes (see progressWriter). */
interface ProgressWriter {
  /** The latest progress: written now, or when `everyMs` has passed since the last write. */
  update(progress: DocumentProgress): void;
  /** Drops a progress not written yet and waits for the write in flight. */
  cancel(): Promise<void>;
}

/**
 * Progress writes of one job, at most one per `everyMs` ms (the last one always lands).
 * Writes are chained, and `cancel` waits for the one in flight: a late progress write must
 * not mark the document `processing` again after its content is stored.
 */
function progressWriter(
  save: (progress: DocumentProgress) => Promise<void>,
  everyMs: number,
  onError: (err: unknown) => void,
): ProgressWriter {
  let last = 0;
  let pending: DocumentProgress | null = null;
  let timer: NodeJS.Timeout | null = null;
  let inflight: Promise<void> = Promise.resolve();
  const write = (): void => {
    timer = null;
    if (!pending) return;
    last = Date.now();
    const progress = pending;
    pending = null;
    inflight = inflight.then(() => save(progress)).catch(onError);
  };
  return {
    update(progress) {
      pending = progress;
      const wait = last + everyMs - Date.now();
      if (wait <= 0) write();
      else timer ??= setTimeout(write, wait);
    },
    async cancel() {
      if (timer) clearTimeout(timer);
      timer = null;
      pending = null;
      await inflight;
    },
  };
}

/** How a job's error counts: ingestion and fetch errors say whether a retry may help; anything else is a crash, logged, not retried. */
function classifyJobError(err: unknown, logger: Logger): JobFailure {
  if (err instanceof IngestError) return { message: err.message, transient: err.transient };
  if (err instanceof FetchError) return { message: err.message, transient: err.transient };
  logger.error('web document job crashed', { error: err instanceof Error ? err.stack : String(err) });
  return { message: `Internal error while fetching: ${(err as Error)?.message ?? String(err)}`, transient: false };
}

/** Documents fetched from a URL or crawled from it (POST /documents with `url`), worked by background jobs. */
export interface UrlSources {
  /** `{url, crawl?, title?}` from POST /documents → the new document (201); a single page is awaited up to `waitMs`. */
  add(knowledgeBaseId: string, body: unknown): Promise<DocumentRecord>;
  /** Fetches a url/crawl document again; its old chunks serve until the new ones are ready. */
  resync(knowledgeBaseId: string, documentId: string): Promise<DocumentRecord>;
  /** Starts the job runner (`listen` calls it). */
  start(): void;
  /** Stops the job runner and closes the fetcher; called before the database closes. */
  stop(): Promise<void>;
}

export function createUrlSources(ctx: AppContext, store: KnowledgeStore, tuning: UrlSourceTuning = {}): UrlSources {
  const allowPrivate = ctx.config.fetchAllowPrivate ?? false;
  const waitMs = tuning.waitMs ?? 10_000;
  const progressEvery = tuning.progressIntervalMs ?? 250;
  let fetcher: Fetcher | null = null;
  const getFetcher = (): Fetcher =>
    (fetcher ??= createFetcher({
      allowPrivate,
      // Read when first used: a test server learns its public URL only once listening.
      userAgent: `ParleyBot/1.0 (+${ctx.config.publicUrl})`,
      timeoutMs: tuning.fetchTimeoutMs ?? 15_000,
      maxBytes: tuning.maxBytes ?? 10 * 1024 * 1024,
      ...(tuning.resolve ? { resolve: tuning.resolve } : {}),
      ...(tuning.lookup ? { lookup: tuning.lookup } : {}),
    }));
  const docRow = (id: string) =>
    ctx.storage.get<{ knowledge_base_id: string; url: string | null; title: string; source: string }>(
      'SELECT knowledge_base_id, url, title, source FROM documents WHERE id = ?',
      [id],
    );

  /** A document state write, only while the job's lease is this instance's (issue 15: a taken-over job writes nothing). */
  const setState = (lease: JobLease, documentId: string, state: Parameters<KnowledgeStore['setDocumentState']>[1]): Promise<void> =>
    store.write(async (w) => {
      if (await lease.held(w.tx)) await w.setDocumentState(documentId, state, nowIso(ctx));
    });

  /** Before the content is chunked: a job taken over by another instance stops here (cheap early exit). */
  async function stillHeld(lease: JobLease, signal: AbortSignal, url: string): Promise<void> {
    if (signal.aborted || !(await lease.held(ctx.storage))) throw new FetchError('fetch cancelled', 'aborted', url);
  }

  /** The swap itself, fenced by the lease in its own transaction (content-swap.ts): refused once the job was taken over. */
  async function swap(lease: JobLease, documentId: string, content: FetchedContent, url: string): Promise<'done' | 'gone'> {
    const outcome = await swapInContent(store, lease, documentId, content, nowIso(ctx));
    if (outcome === 'lost') throw new FetchError('fetch cancelled: the job was taken over by another instance', 'aborted', url);
    return outcome === 'gone' ? 'gone' : 'done';
  }

  async function perform(job: IngestJob, signal: AbortSignal, lease: JobLease): Promise<'done' | 'gone'> {
    const doc = await docRow(job.documentId);
    if (!doc?.url) return 'gone';
    const options = ((await store.sourceOptions(job.documentId)) ?? {}) as UrlSourceOptions;
    const f = getFetcher();
    if (job.kind === 'fetch') {
      await setState(lease, job.documentId, { status: 'processing', progress: { pagesFetched: 0, attempt: job.attempts } });
      const page = await fetchSinglePage(f, doc.url, signal);
      await stillHeld(lease, signal, doc.url);
      const title = options.title ?? page.title ?? doc.title;
      return swap(
        lease,
        job.documentId,
        {
          title,
          bytes: page.bytes,
          progress: { pagesFetched: 1, pagesIndexed: 1 },
          format: page.sourceFormat,
          parts: [{ content: page.text, format: page.format, title: page.title ?? title, url: page.url }],
        },
        doc.url,
      );
    }
    const crawl = options.crawl ?? { maxPages: 50, maxDepth: 2 };
    const progress = progressWriter(
      (p) => setState(lease, job.documentId, { status: 'processing', progress: p }),
      progressEvery,
      (err) => ctx.logger.error('progress write failed', { documentId: job.documentId, error: String(err) }),
    );
    await setState(lease, job.documentId, {
      status: 'processing',
      progress: { pagesFetched: 0, pagesIndexed: 0, maxPages: crawl.maxPages, attempt: job.attempts },
    });
    try {
      const result = await crawlSite({
        startUrl: doc.url,
        maxPages: crawl.maxPages,
        maxDepth: crawl.maxDepth,
        fetcher: f,
        signal,
        concurrency: tuning.crawlConcurrency ?? 4,
        maxCrawlDelayMs: tuning.maxCrawlDelayMs ?? 2000,
        onProgress: (p) => progress.update(p),
      });
      await progress.cancel();
      await stillHeld(lease, signal, doc.url);
      if (!result.pages.length) {
        const p = result.progress;
        throw new IngestError(
          `No indexable page found from ${doc.url} (${p.pagesFetched} fetched, ${p.pagesSkipped} skipped, ${p.pagesFailed} failed)`,
          false,
        );
      }
      const parts: DocumentPart[] = result.pages.map((page) => ({
        content: page.text,
        format: page.format,
        title: page.title ?? page.url,
        url: page.url,
      }));
      return await swap(
        lease,
        job.documentId,
        { title: options.title ?? result.startTitle ?? doc.title, parts, bytes: result.bytes, progress: result.progress },
        doc.url,
      );
    } finally {
      await progress.cancel();
    }
  }

  // A test's tuning, else WEB_JOB_LEASE_MS (config.ts), else the runner's default.
  const leaseMs = tuning.leaseMs ?? ctx.config.webJobLeaseMs;
  const runner = createJobRunner({
    storage: ctx.storage,
    clock: ctx.clock,
    logger: ctx.logger,
    concurrency: tuning.concurrency ?? 2,
    pollMs: tuning.pollMs ?? 1000,
    retryDelaysMs: tuning.retryDelaysMs ?? [5_000, 30_000],
    ...(leaseMs ? { leaseMs } : {}),
    hooks: {
      perform,
      classify: (err) => classifyJobError(err, ctx.logger),
      async requeued(job, why) {
        const progress: DocumentProgress | undefined = why.retryAt
          ? { retryAt: new Date(why.retryAt).toISOString(), lastError: why.error }
          : undefined;
        await store.setDocumentState(job.documentId, { status: 'queued', ...(progress ? { progress } : {}) }, nowIso(ctx));
      },
      async failed(job, error) {
        await store.setDocumentState(job.documentId, { status: 'failed', error }, nowIso(ctx));
      },
    },
  });

  const badUrl = (message: string): AppError => new AppError('validation_error', `url: ${message}`);

  return {
    async add(knowledgeBaseId: string, body: unknown): Promise<DocumentRecord> {
      const input = parseInput(urlDocumentSchema, body);
      const url = normalizeUrl(input.url);
      if (!url) throw badUrl('must be an http(s) URL without credentials');
      const problem = getFetcher().urlProblem(url);
      if (problem) throw badUrl(problem);
      const crawl = input.crawl ?? null;
      const options: UrlSourceOptions = { ...(crawl ? { crawl } : {}), ...(input.title ? { title: input.title } : {}) };
      const kind: JobKind = crawl ? 'crawl' : 'fetch';
      const { doc, job } = await store.write(async (w) => {
        const created = await w.createPendingDocument(
          knowledgeBaseId,
          {
            title: input.title ?? url,
            url,
            format: crawl ? 'crawl' : 'html',
            source: crawl ? 'crawl' : 'url',
            sourceOptions: options,
          },
          nowIso(ctx),
        );
        return { doc: created, job: (await runner.enqueue(w.tx, created.id, kind)).job };
      });
      runner.wake();
      if (!crawl && runner.running) await runner.waitFor(job.id, waitMs);
      return (await store.getDocument(knowledgeBaseId, doc.id)) ?? doc;
    },

    async resync(knowledgeBaseId: string, documentId: string): Promise<DocumentRecord> {
      const doc = await store.getDocument(knowledgeBaseId, documentId);
      if (!doc) throw notFound('Document');
      if ((doc.source !== 'url' && doc.source !== 'crawl') || !doc.url) {
        throw new AppError('validation_error', `Only documents fetched from a URL can be re-synced (this one's source is ${doc.source})`);
      }
      await store.write(async (w) => {
        const { created } = await runner.enqueue(w.tx, documentId, doc.source === 'crawl' ? 'crawl' : 'fetch');
        if (created) await w.setDocumentState(documentId, { status: 'queued' }, nowIso(ctx));
      });
      runner.wake();
      return (await store.getDocument(knowledgeBaseId, documentId)) ?? doc;
    },

    start(): void {
      runner.start();
    },
    async stop(): Promise<void> {
      await runner.stop();
      fetcher?.close();
      fetcher = null;
    },
  };
}
