/**
 * PDF text extraction with pdfjs-dist (legacy build). Only the text layer is read: no rendering,
 * no fonts loaded into a page, no network. pdfjs runs in a worker thread of its own
 * (`pdf-worker.mjs`, started without the TypeScript loader):
 * - the server's event loop stays free (pdfjs's in-thread "fake worker" answers through
 *   microtasks only, so a 1,000-page PDF would otherwise hold the loop for seconds);
 * - its memory (the modules, ~55 MB; the parsed document) is returned when the thread ends,
 *   10 s after its last job (under tsx the modules alone would cost the server ~270 MB of RSS
 *   for good);
 * - a deadline or a heap limit can stop a hostile file for real (the thread is terminated).
 * CMaps and standard-font data are read from the installed package when a PDF needs them.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { AppError } from '../../http/errors.js';

/** One positioned run of text as pdfjs reports it (the parts of a `TextItem` used here). */
export interface PdfTextRun {
  str: string;
  /** Baseline origin in page space (points, y up). */
  x: number;
  y: number;
  /** Advance width of the run (points). */
  width: number;
  /** Font size (points); 0 for pdfjs's synthetic space runs. */
  size: number;
  /** pdfjs saw a line break after this run. */
  hasEOL: boolean;
}

export interface PdfPageText {
  page: number;
  text: string;
}
export interface PdfText {
  title: string | null;
  pageCount: number;
  pages: PdfPageText[];
}

/** Hard stop for one document's extraction (a hostile PDF can be made slow to parse). */
const DEFAULT_DEADLINE_MS = 60_000;
/** Heap of the extraction thread; past it the thread dies and the file counts as unreadable. */
const WORKER_HEAP_MB = 768;
/** Extractions running at once; more wait their turn (each holds a thread and its memory). */
const MAX_CONCURRENT = 2;

interface Line {
  text: string;
  y: number;
  size: number;
  right: number;
}

// Characters that are never content (pdfjs passes through whatever the font maps to).
const CONTROL_RE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

/**
 * Rebuilds a page's text from its runs: runs are joined into lines (pdfjs's `hasEOL`, or the
 * baseline moving by more than half the font size), lines into paragraphs (a vertical gap
 * clearly wider than the page's usual line spacing, a change of font size, or the text
 * jumping back up, as at a new column), words split across lines by a hyphen are joined,
 * whitespace is collapsed. Paragraphs are separated by a blank line.
 */
export function rebuildPageText(runs: readonly PdfTextRun[]): string {
  const lines: Line[] = [];
  let line: Line | null = null;
  for (const run of runs) {
    const str = run.str.replace(CONTROL_RE, '');
    const blank = !str.trim();
    if (line && !blank && Math.abs(run.y - line.y) > Math.max(line.size, run.size, 1) * 0.5) {
      lines.push(line);
      line = null;
    }
    if (!line) {
      if (!blank) line = { text: str, y: run.y, size: run.size, right: run.x + run.width };
    } else if (str) {
      // A visible gap between runs on one line is a word break the PDF did not encode.
      if (!blank && run.x - line.right > Math.max(line.size, run.size, 1) * 0.15 && !/\s$/.test(line.text) && !/^\s/.test(str))
        line.text += ' ';
      line.text += str;
      if (!blank) {
        line.size = Math.max(line.size, run.size);
        line.right = run.x + run.width;
      }
    }
    if (run.hasEOL && line) {
      lines.push(line);
      line = null;
    }
  }
  if (line) lines.push(line);
  if (lines.length === 0) return '';

  // The page's usual line spacing: the lower quartile of the downward gaps between lines of
  // one font size (a heading's gap to its text says nothing about the text's leading).
  const sameSize = (a: Line, b: Line): boolean => Math.abs(a.size - b.size) <= 0.2 * Math.max(a.size, b.size, 1);
  const gaps: number[] = [];
  for (let i = 1; i < lines.length; i++) {
    const prev = lines[i - 1] as Line;
    const cur = lines[i] as Line;
    const gap = prev.y - cur.y;
    if (sameSize(prev, cur) && gap > 0 && gap <= 3 * Math.max(cur.size, 1)) gaps.push(gap);
  }
  gaps.sort((a, b) => a - b);
  const usual = gaps.length ? (gaps[Math.floor((gaps.length - 1) / 4)] as number) : 0;

  const paragraphs: string[][] = [];
  let current: string[] = [];
  lines.forEach((l, i) => {
    const prev = lines[i - 1];
    if (prev) {
      const gap = prev.y - l.y;
      const size = Math.max(l.size, prev.size, 1);
      // Up by more than half a line: a new column or a block placed out of reading order.
      if (gap < -0.5 * size || gap > Math.max(size * 1.6, usual * 1.3) || !sameSize(prev, l)) {
        paragraphs.push(current);
        current = [];
      }
    }
    current.push(l.text.replace(/\s+/g, ' ').trim());
  });
  paragraphs.push(current);
  return paragraphs
    .map(joinLines)
    .filter((p) => p)
    .join('\n\n');
}

/** Joins a paragraph's lines: "exam-" + "ple" → "example" (lowercase continuation only). */
function joinLines(lines: string[]): string {
  let out = '';
  for (const l of lines) {
    if (!l) continue;
    if (!out) out = l;
    else if (out.endsWith('\u00ad')) out = out.slice(0, -1) + l;
    else if (/\p{L}-$/u.test(out.slice(-3)) && /^\p{Ll}/u.test(l)) out = out.slice(0, -1) + l;
    else out += ' ' + l;
  }
  return out
    .replace(/\u00ad/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

// pdfjs reads these through the filesystem in Node: plain paths with the trailing slash it requires.
const require = createRequire(import.meta.url);
const PDFJS_DIR = path.dirname(require.resolve('pdfjs-dist/package.json'));
const CMAP_URL = `${path.join(PDFJS_DIR, 'cmaps')}/`;
const STANDARD_FONT_URL = `${path.join(PDFJS_DIR, 'standard_fonts')}/`;
const WORKER_URL = new URL('./pdf-worker.mjs', import.meta.url);

/** What pdf-worker.mjs posts. A run is [str, x, y, width, size, hasEOL]. */
type WorkerMessage =
  | { type: 'meta'; title: string | null; pageCount: number }
  | { type: 'page'; page: number; runs: [string, number, number, number, number, boolean][] }
  | { type: 'pageError'; page: number }
  | { type: 'done' }
  | { type: 'error'; kind: 'password' | 'invalid' };

const encrypted = (): AppError =>
  new AppError('validation_error', 'The PDF is encrypted (password-protected): remove the password and upload it again');
const unreadable = (): AppError => new AppError('validation_error', 'The PDF could not be read: the file is damaged or not a valid PDF');
const tooSlow = (): AppError => new AppError('validation_error', 'The PDF took too long to read');

// ---------------------------------------------------------------------------
// The extraction threads: at most MAX_CONCURRENT, kept a few seconds after a job for the next
// one (a burst of uploads), recycled after RECYCLE_AFTER jobs, never keeping the process alive.
// ---------------------------------------------------------------------------

const IDLE_MS = 10_000;
const RECYCLE_AFTER = 50;

interface PdfThread {
  worker: Worker;
  jobs: number;
  idleTimer: NodeJS.Timeout | null;
}
const idle: PdfThread[] = [];
let running = 0;
const waiting: (() => void)[] = [];

async function turn(): Promise<() => void> {
  if (running >= MAX_CONCURRENT) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  return () => {
    running--;
    waiting.shift()?.();
  };
}

function spawn(): PdfThread {
  const worker = new Worker(WORKER_URL, {
    workerData: { cMapUrl: CMAP_URL, standardFontDataUrl: STANDARD_FONT_URL },
    execArgv: [],
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
  });
  const thread: PdfThread = { worker, jobs: 0, idleTimer: null };
  worker.on('error', () => undefined); // reported to the job in progress, if any, by its exit
  worker.once('exit', () => {
    const i = idle.indexOf(thread);
    if (i >= 0) idle.splice(i, 1);
    if (thread.idleTimer) clearTimeout(thread.idleTimer);
  });
  return thread;
}

function park(thread: PdfThread): void {
  if (thread.jobs >= RECYCLE_AFTER) {
    void thread.worker.terminate();
    return;
  }
  thread.worker.unref();
  thread.idleTimer = setTimeout(() => void thread.worker.terminate(), IDLE_MS);
  thread.idleTimer.unref();
  idle.push(thread);
}

/**
 * The text layer of a PDF, one entry per page that has text (1-based page numbers), and its
 * title from the XMP `dc:title` or the Info dictionary. Encrypted PDFs (a user password is
 * needed), unreadable ones and ones that take longer than the deadline throw a 400 `AppError`.
 */
export async function extractPdf(data: Uint8Array, opts: { deadlineMs?: number } = {}): Promise<PdfText> {
  const done = await turn();
  try {
    const thread = idle.pop() ?? spawn();
    if (thread.idleTimer) clearTimeout(thread.idleTimer);
    thread.idleTimer = null;
    thread.worker.ref();
    thread.jobs++;
    const { outcome, reusable } = await runJob(thread.worker, data, opts.deadlineMs ?? DEFAULT_DEADLINE_MS);
    if (reusable) park(thread);
    else void thread.worker.terminate();
    if (outcome instanceof AppError) throw outcome;
    return outcome;
  } finally {
    done();
  }
}

/** Runs one document on `worker`; `reusable` is false when the thread crashed or overran. */
function runJob(worker: Worker, data: Uint8Array, deadlineMs: number): Promise<{ outcome: PdfText | AppError; reusable: boolean }> {
  return new Promise((resolve) => {
    let title: string | null = null;
    let pageCount = 0;
    let failed = 0;
    const pages: PdfPageText[] = [];
    const finish = (outcome: PdfText | AppError, reusable: boolean): void => {
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('exit', onExit);
      resolve({ outcome, reusable });
    };
    const onMessage = (m: WorkerMessage): void => {
      if (m.type === 'meta') {
        title = m.title?.replace(/\s+/g, ' ').trim() || null;
        pageCount = m.pageCount;
      } else if (m.type === 'page') {
        const text = rebuildPageText(m.runs.map(([str, x, y, width, size, hasEOL]) => ({ str, x, y, width, size, hasEOL })));
        if (text) pages.push({ page: m.page, text });
      } else if (m.type === 'pageError') {
        failed++;
      } else if (m.type === 'error') {
        finish(m.kind === 'password' ? encrypted() : unreadable(), true);
      } else {
        finish(pageCount > 0 && failed === pageCount ? unreadable() : { title, pageCount, pages }, true);
      }
    };
    // A crash or the heap limit ends the thread before `done`: the file could not be read.
    const onExit = (): void => finish(unreadable(), false);
    const timer = setTimeout(() => finish(tooSlow(), false), deadlineMs);
    worker.on('message', onMessage);
    worker.on('exit', onExit);
    // The thread gets its own copy, moved rather than cloned.
    const copy = new Uint8Array(data);
    worker.postMessage({ data: copy }, [copy.buffer]);
  });
}
