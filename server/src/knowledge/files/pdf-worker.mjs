// The pdfjs side of pdf.ts, run in worker threads of its own (plain JavaScript: the threads are
// started without the TypeScript loader). For each {data} it is sent, it reads the PDF and posts:
//   {type: 'meta', title, pageCount}, then per page {type: 'page', page, runs} or
//   {type: 'pageError', page}, then {type: 'done'}; or {type: 'error', kind: 'password'|'invalid'}.
// A run is [str, x, y, width, size, hasEOL] (see PdfTextRun in pdf.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
// Registers globalThis.pdfjsWorker: pdfjs's "fake worker" then runs in this thread.
import 'pdfjs-dist/legacy/build/pdf.worker.mjs';

const { cMapUrl, standardFontDataUrl } = workerData;
const post = (message) => parentPort.postMessage(message);
const text = (value) => (typeof value === 'string' ? value : null);

/** One document; the next one is only sent after this one's `done` or `error`. */
async function extract(data) {
  const task = getDocument({
    data,
    verbosity: 0,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    useWorkerFetch: false,
    useWasm: false,
    isOffscreenCanvasSupported: false,
    isImageDecoderSupported: false,
    enableXfa: false,
    disableAutoFetch: true,
    disableStream: true,
    disableRange: true,
    stopAtErrors: false,
    // Local directories of the installed package, read with fs: nothing is downloaded.
    cMapUrl,
    cMapPacked: true,
    standardFontDataUrl,
  });
  try {
    let doc;
    try {
      doc = await task.promise;
    } catch (e) {
      post({ type: 'error', kind: e?.name === 'PasswordException' ? 'password' : 'invalid' });
      return;
    }
    let title = null;
    try {
      const { info, metadata } = await doc.getMetadata();
      title = text(metadata?.get('dc:title'))?.trim() || text(info?.Title);
    } catch {
      /* no usable metadata */
    }
    post({ type: 'meta', title, pageCount: doc.numPages });
    for (let n = 1; n <= doc.numPages; n++) {
      try {
        const page = await doc.getPage(n);
        const content = await page.getTextContent();
        const runs = [];
        for (const item of content.items) {
          if (typeof item.str !== 'string') continue; // marked-content boundaries
          const t = item.transform;
          runs.push([item.str, t[4], t[5], item.width, item.height || Math.hypot(t[2], t[3]), item.hasEOL]);
        }
        page.cleanup();
        post({ type: 'page', page: n, runs });
      } catch {
        post({ type: 'pageError', page: n });
      }
    }
  } finally {
    await task.destroy().catch(() => undefined);
  }
  post({ type: 'done' });
}

parentPort.on('message', (job) => {
  extract(job.data).catch(() => post({ type: 'error', kind: 'invalid' }));
});
