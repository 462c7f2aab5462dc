/**
 * `POST /v1/knowledge-bases/:id/documents` with `multipart/form-data` (docs/api-spec.md §6): one file in
 * the `file` field (.txt .md .html .pdf .docx, ≤ 25 MiB) and optional `title` and `url` text
 * fields. The body is streamed through busboy; the file is held in memory (at most 25 MiB) and
 * its type is decided by extension and checked against its content before it is parsed.
 */
import path from 'node:path';
import busboy from 'busboy';
import type { Request } from 'express';
import { z } from 'zod';
import { AppError } from '../../http/errors.js';
import { inlineMarkdownToText, splitHeadingId } from '../chunking.js';
import { decodeEntities, htmlToMarkdownText } from '../html-to-text.js';
import type { DocumentPart, ParsedDocument } from '../store.js';
import { extractDocx, openDocx } from './docx.js';
import { extractPdf } from './pdf.js';

export const MAX_FILE_BYTES = 25 * 1024 * 1024;
export const MAX_TITLE_CHARS = 500;
export const MAX_URL_CHARS = 2048;
/** Text fields accepted besides `file`: `title` and `url`, with room to name an unexpected one. */
const MAX_FIELDS = 4;
/** Bytes per text field: a 2,048-character URL or a 500-character title fits with room to spare. */
const MAX_FIELD_BYTES = 16 * 1024;
/** After a refused upload, the rest of the body is read and discarded (so the client can read the
 * error) up to this many bytes; past that the connection is closed. */
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;

export type FileFormat = 'text' | 'markdown' | 'html' | 'pdf' | 'docx';
export const ACCEPTED_TYPES = '.txt, .md, .html, .pdf, .docx';
const FORMAT_BY_EXTENSION: Record<string, FileFormat> = {
  '.txt': 'text',
  '.text': 'text',
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.html': 'html',
  '.htm': 'html',
  '.pdf': 'pdf',
  '.docx': 'docx',
};

/** What the multipart body carried, before parsing. */
export interface RawUpload {
  fileName: string;
  data: Buffer;
  title?: string | undefined;
  url?: string | undefined;
}

const invalid = (message: string): AppError => new AppError('validation_error', message);
const FILE_REQUIRED = '`file` is required: send the document as multipart/form-data in a field named `file`';

/** Reads the multipart body of `req` and extracts the document it carries. */
export async function readUpload(req: Request): Promise<ParsedDocument> {
  return parseUpload(await receiveUpload(req));
}

// ---------------------------------------------------------------------------
// Receiving
// ---------------------------------------------------------------------------

/**
 * Streams the body through busboy. Refusals (413 over 25 MiB, 400 for a malformed body or
 * unexpected fields) stop reading at once: the rest of the body is discarded unread up to
 * DRAIN_LIMIT_BYTES so that the client, still sending, gets the error response instead of a
 * reset connection.
 */
export function receiveUpload(req: Request, limits: { maxBytes: number } = { maxBytes: MAX_FILE_BYTES }): Promise<RawUpload> {
  const maxBytes = limits.maxBytes;
  return new Promise<RawUpload>((resolve, reject) => {
    // busboy reads the bytes as they come: a compressed body would be parsed as garbage.
    const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
    if (encoding !== 'identity') {
      reject(invalid(`Content-Encoding ${encoding} is not accepted on uploads: send the multipart/form-data body uncompressed`));
      discard(req);
      return;
    }
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: req.headers,
        defParamCharset: 'utf8', // browsers send UTF-8 file names
        limits: {
          fileSize: maxBytes + 1,
          files: 1,
          fields: MAX_FIELDS,
          fieldSize: MAX_FIELD_BYTES,
          parts: MAX_FIELDS + 2,
          headerPairs: 16,
        },
      });
    } catch {
      reject(invalid('Malformed multipart/form-data request: the boundary is missing'));
      discard(req);
      return;
    }

    let settled = false;
    const chunks: Buffer[] = [];
    let size = 0;
    let fileName: string | null = null;
    let fileEnded = false;
    let formEnded = false;
    const fields: { title?: string; url?: string } = {};

    const fail = (err: AppError): void => {
      if (settled) return;
      settled = true;
      chunks.length = 0;
      req.unpipe(bb);
      // Not from inside busboy's own callback (it carries on with the part it is in).
      setImmediate(() => bb.destroy());
      discard(req);
      reject(err);
    };
    const done = (): void => {
      if (settled || !formEnded) return;
      if (fileName === null) return fail(invalid(FILE_REQUIRED));
      if (!fileEnded) return;
      if (fileName === '' && size === 0) return fail(invalid(FILE_REQUIRED)); // a form sent with no file chosen
      settled = true;
      resolve({ fileName, data: Buffer.concat(chunks, size), title: fields.title, url: fields.url });
    };

    const shown = (name: string): string => (name.length > 100 ? `${name.slice(0, 100)}…` : name);
    bb.on('file', (name, stream, info) => {
      if (name !== 'file') {
        stream.resume();
        return fail(invalid(`Unexpected file field \`${shown(name)}\`: send the document in the \`file\` field`));
      }
      fileName = info.filename ?? '';
      stream.on('error', () => undefined); // busboy's own error event reports it
      stream.on('data', (chunk: Buffer) => {
        if (settled) return;
        chunks.push(chunk);
        size += chunk.length;
      });
      stream.on('limit', () =>
        fail(new AppError('payload_too_large', `The file exceeds the ${maxBytes / 1024 / 1024} MiB (${maxBytes} byte) limit`)),
      );
      stream.on('end', () => {
        fileEnded = true;
        done();
      });
    });
    bb.on('field', (name, value, info) => {
      if (name === 'file') return fail(invalid('`file` must be a file upload (a part with a filename), not a text field'));
      if (name !== 'title' && name !== 'url')
        return fail(invalid(`Unknown field \`${shown(name)}\`: send \`file\` and optionally \`title\` and \`url\``));
      if (info.valueTruncated) return fail(invalid(`\`${name}\` is too long`));
      // Fields are decoded as UTF-8 with invalid bytes turned into U+FFFD: refuse them instead.
      if (value.includes('\uFFFD')) return fail(invalid(`\`${name}\` is not valid UTF-8`));
      if (fields[name] !== undefined) return fail(invalid(`\`${name}\` was sent more than once`));
      fields[name] = value;
    });
    bb.on('filesLimit', () => fail(invalid('Send exactly one file, in the `file` field')));
    bb.on('fieldsLimit', () => fail(invalid('Too many form fields: send `file` and optionally `title` and `url`')));
    bb.on('partsLimit', () => fail(invalid('Too many form parts: send `file` and optionally `title` and `url`')));
    bb.on('error', (e: unknown) =>
      fail(invalid(`Malformed multipart/form-data request: ${e instanceof Error ? e.message : 'unreadable body'}`)),
    );
    bb.on('close', () => {
      formEnded = true;
      done();
    });
    req.on('close', () => {
      // The client went away mid-body: nobody is left to answer, just let go.
      if (!req.complete) fail(invalid('Request aborted'));
    });
    req.pipe(bb);
  });
}

/** Reads and drops what is left of the body (bounded), so the client gets the error reply. */
function discard(req: Request): void {
  if (req.complete || req.destroyed) return;
  let drained = 0;
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_LIMIT_BYTES) req.socket.destroy();
  });
  req.resume();
}

// ---------------------------------------------------------------------------
// Parsing
// ---------------------------------------------------------------------------

const urlSchema = z
  .url({ protocol: /^https?$/, message: '`url` must be an http(s) URL' })
  .max(MAX_URL_CHARS, `\`url\` must be at most ${MAX_URL_CHARS} characters`);

/** Checks the text fields: blank ones count as absent. */
function readFields(raw: RawUpload): { title: string | null; url: string | null } {
  const title = raw.title?.replace(/\s+/g, ' ').trim() || null;
  if (title && title.length > MAX_TITLE_CHARS) throw invalid(`\`title\` must be at most ${MAX_TITLE_CHARS} characters`);
  const urlText = raw.url?.trim() || null;
  let url: string | null = null;
  if (urlText) {
    const r = urlSchema.safeParse(urlText);
    if (!r.success) throw invalid(r.error.issues[0]?.message ?? '`url` must be an http(s) URL');
    url = r.data;
  }
  return { title, url };
}

/** The format a file name's extension stands for, or null. */
export function formatOfFileName(fileName: string): FileFormat | null {
  return FORMAT_BY_EXTENSION[path.extname(fileName).toLowerCase()] ?? null;
}

const startsWith = (data: Buffer, magic: string): boolean => data.subarray(0, magic.length).equals(Buffer.from(magic, 'latin1'));
const ZIP_MAGIC = 'PK\x03\x04';

/** A PDF header: `%PDF-` at the start (readers accept it within the first 1,024 bytes). */
function looksLikePdf(data: Buffer): boolean {
  const at = data.subarray(0, 1024).indexOf('%PDF-', 0, 'latin1');
  return at === 0 || (at > 0 && !data.subarray(0, at).includes(0));
}

/**
 * Decodes a text file: UTF-8 (a BOM is dropped), UTF-16 with a BOM, else Windows-1252. Null for
 * binary content (NUL bytes, or many control characters).
 */
export function decodeText(data: Buffer): string | null {
  let text: string;
  if (data[0] === 0xff && data[1] === 0xfe) text = new TextDecoder('utf-16le').decode(data);
  else if (data[0] === 0xfe && data[1] === 0xff) text = new TextDecoder('utf-16be').decode(data);
  else {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(data);
    } catch {
      text = decodeLegacy(data);
    }
  }
  if (text.includes('\u0000')) return null;
  // Text has few control characters besides tab, newlines and form feed; binaries have many.
  const sample = text.slice(0, 64 * 1024);
  let controls = 0;
  for (let i = 0; i < sample.length; i++) {
    const c = sample.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x0c && c !== 0x1b) || c === 0x7f || c === 0xfffd) controls++;
  }
  return controls > Math.max(4, sample.length / 100) ? null : text;
}

/** Windows-1252's 0x80-0x9F (Node's TextDecoder treats the label as ISO-8859-1); 0 = unassigned. */
const CP1252_HIGH = [
  0x20ac, 0, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017d, 0, 0, 0x2018, 0x2019,
  0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0, 0x017e, 0x0178,
];
const CP1252_RE = /[\u0080-\u009f]/g;
function decodeLegacy(data: Buffer): string {
  return data.toString('latin1').replace(CP1252_RE, (c) => String.fromCharCode(CP1252_HIGH[c.charCodeAt(0) - 0x80] || c.charCodeAt(0)));
}

/** A title as shown: whitespace collapsed, Word's "Microsoft Word - x.doc" unwrapped, ≤ 500 chars. */
export function cleanTitle(raw: string | null | undefined): string | null {
  const s = (raw ?? '')
    .slice(0, 4 * MAX_TITLE_CHARS)
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^Microsoft Word - (.+?)(?:\.docx?)?$/i, '$1')
    .trim();
  if (!s || /^(?:untitled|untitled document|document\d*)$/i.test(s)) return null;
  return s.length > MAX_TITLE_CHARS ? s.slice(0, MAX_TITLE_CHARS).trim() : s;
}

/** The first markdown heading (ATX or setext) in the first 64 KiB, outside fenced code. */
export function firstMarkdownHeading(text: string): string | null {
  const lines = text.slice(0, 64 * 1024).split(/\r\n?|\n/);
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const f = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (f) {
      if (!fence) fence = f[1] as string;
      else if (line.trim().startsWith(fence)) fence = null;
      continue;
    }
    if (fence) continue;
    const atx = /^ {0,3}#{1,6}[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$/.exec(line);
    if (atx) return cleanTitle(inlineMarkdownToText(splitHeadingId(atx[1] as string).text));
    const next = lines[i + 1];
    if (line.trim() && next !== undefined && /^ {0,3}(?:=+|-+)[ \t]*$/.test(next) && !/^\s*(?:[-*+]\s|\d{1,9}[.)]\s|>|\|)/.test(line)) {
      return cleanTitle(inlineMarkdownToText(line));
    }
  }
  return null;
}

/** The first <h1>..<h6> of an HTML string, as text. */
function firstHtmlHeading(html: string): string | null {
  const m = /<h[1-6](?:\s[^>]*)?>([\s\S]*?)<\/h[1-6]\s*>/i.exec(html);
  return m ? cleanTitle(decodeEntities((m[1] ?? '').replace(/<[^>]*>/g, ' '))) : null;
}

const fileStem = (fileName: string): string => {
  const base = path.basename(fileName);
  const stem = base.slice(0, base.length - path.extname(base).length);
  return cleanTitle(stem) ?? cleanTitle(base) ?? 'Untitled';
};

/**
 * Runs of 64+ blanks (no newline) become one space: they carry no meaning in prose, and the
 * chunker's trailing-whitespace regexes take quadratic time on long runs (80 k blanks ≈ 9 s).
 */
const squeezeBlanks = (text: string): string => text.replace(/[^\S\n]{64}[^\S\n]*/g, ' '); // not {64,}: that overflows the regex stack on MiB-long runs

const mismatch = (ext: string, what: string): AppError => invalid(`The file's content does not match its ${ext} extension: ${what}`);
const noText = (extra = ''): AppError => invalid(`The file contains no extractable text${extra}`);

/** Detects the type, checks the content against it, extracts the text into parts. */
export async function parseUpload(raw: RawUpload): Promise<ParsedDocument> {
  const fields = readFields(raw);
  const fileName = raw.fileName;
  const ext = path.extname(fileName).toLowerCase();
  const format = formatOfFileName(fileName);
  if (!format)
    throw invalid(`Unsupported file type ${ext ? `"${ext}"` : '(the file name has no extension)'}: accepted types are ${ACCEPTED_TYPES}`);
  const data = raw.data;
  if (data.length === 0) throw invalid('The file is empty');

  let parts: DocumentPart[];
  let title: string | null;
  if (format === 'pdf') {
    if (!looksLikePdf(data)) throw mismatch(ext, 'a PDF starts with %PDF-');
    const pdf = await extractPdf(data);
    if (pdf.pages.length === 0) throw noText(pdf.pageCount > 0 ? ' (a scanned PDF has no text layer; run OCR on it first)' : '');
    parts = pdf.pages.map((p) => ({ content: p.text, format: 'text', page: p.page }));
    title = cleanTitle(pdf.title);
  } else if (format === 'docx') {
    if (!startsWith(data, ZIP_MAGIC)) throw mismatch(ext, 'a DOCX file is a zip archive');
    const zip = await openDocx(data);
    if (!zip) throw mismatch(ext, 'the zip archive holds no Word document (word/document.xml)');
    const docx = await extractDocx(data, zip);
    // Converted once here (the title and the emptiness check need it) and handed on as the
    // markdown the chunker would make of the HTML itself.
    const text = htmlToMarkdownText(docx.html).text;
    if (!text.trim()) throw noText();
    parts = [{ content: squeezeBlanks(text), format: 'markdown' }];
    title = cleanTitle(docx.title) ?? firstHtmlHeading(docx.html);
  } else {
    if (startsWith(data, '%PDF-')) throw mismatch(ext, 'it is a PDF (upload it with a .pdf name)');
    if (startsWith(data, ZIP_MAGIC)) throw mismatch(ext, 'it is a zip archive (a .docx file?)');
    const text = decodeText(data);
    if (text === null) throw invalid(`The file is not text (${ext}) and not of another known type: accepted types are ${ACCEPTED_TYPES}`);
    if (format === 'html') {
      const converted = htmlToMarkdownText(text); // once, handed on as markdown (as for DOCX)
      if (!converted.text.trim()) throw noText();
      parts = [{ content: squeezeBlanks(converted.text), format: 'markdown' }];
      title = cleanTitle(converted.title) ?? firstMarkdownHeading(converted.text);
    } else {
      if (!text.trim()) throw noText();
      parts = [{ content: squeezeBlanks(text), format }];
      title = format === 'markdown' ? firstMarkdownHeading(text) : null;
    }
  }

  return {
    title: fields.title ?? title ?? fileStem(fileName),
    url: fields.url,
    format,
    source: 'file',
    bytes: data.length,
    parts,
    sourceOptions: { fileName },
  };
}
