/**
 * DOCX → HTML with mammoth: Word's heading styles become <h1>..<h6>, so the chunker keeps the
 * document's sections. Images are left out (their alt text stays); nothing outside the file is
 * ever read (`externalFileAccess: false`).
 */
import JSZip from 'jszip';
import mammoth from 'mammoth';
import { AppError } from '../../http/errors.js';
import { decodeEntities } from '../html-to-text.js';

export interface DocxContent {
  title: string | null;
  html: string;
}

/** Refuse archives whose parts claim more than this once inflated (zip bombs). */
export const MAX_DOCX_INFLATED_BYTES = 256 * 1024 * 1024;

/**
 * mammoth maps headings by style *name* ("heading 1"); these add the built-in style IDs, for
 * files whose styles.xml is missing or does not name them (some generators).
 */
const HEADINGS_BY_STYLE_ID = [1, 2, 3, 4, 5, 6].map((n) => `p.Heading${n} => h${n}:fresh`);

const unreadable = (): AppError =>
  new AppError('validation_error', 'The DOCX file could not be read: the file is damaged or not a valid Word document');

/**
 * The archive, when the bytes are a zip holding a Word document body (`word/document.xml`);
 * null for another kind of zip. A damaged zip throws a 400 `AppError`.
 */
export async function openDocx(data: Uint8Array): Promise<JSZip | null> {
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(data);
  } catch {
    throw unreadable();
  }
  return zip.file('word/document.xml') ? zip : null;
}

/** The sizes the zip's directory declares for its entries, summed (jszip keeps them internally). */
function declaredInflatedBytes(zip: JSZip): number {
  let total = 0;
  zip.forEach((_path, file) => {
    const size = (file as unknown as { _data?: { uncompressedSize?: unknown } })._data?.uncompressedSize;
    if (typeof size === 'number' && Number.isFinite(size)) total += size;
  });
  return total;
}

/** `dc:title` of docProps/core.xml, whitespace collapsed; null when absent or empty. */
async function coreTitle(zip: JSZip): Promise<string | null> {
  const core = zip.file('docProps/core.xml');
  if (!core) return null;
  try {
    const xml = await core.async('string');
    const m = /<dc:title(?:\s[^>]*)?>([\s\S]*?)<\/dc:title>/.exec(xml);
    const title = m
      ? decodeEntities(m[1] ?? '')
          .replace(/\s+/g, ' ')
          .trim()
      : '';
    return title || null;
  } catch {
    return null;
  }
}

/**
 * A DOCX's body as HTML and its metadata title. `zip` is the archive `openDocx` returned for
 * the same bytes. Damaged files throw a 400 `AppError`.
 */
export async function extractDocx(data: Buffer, zip: JSZip, opts: { maxInflatedBytes?: number } = {}): Promise<DocxContent> {
  const max = opts.maxInflatedBytes ?? MAX_DOCX_INFLATED_BYTES;
  if (declaredInflatedBytes(zip) > max) {
    throw new AppError('validation_error', `The DOCX file is too large once uncompressed (over ${Math.round(max / 1024 / 1024)} MiB)`);
  }
  const title = await coreTitle(zip);
  let html: string;
  try {
    const result = await mammoth.convertToHtml(
      { buffer: data },
      {
        styleMap: HEADINGS_BY_STYLE_ID,
        convertImage: mammoth.images.imgElement(() => Promise.resolve({ src: '' })),
        externalFileAccess: false,
        ignoreEmptyParagraphs: true,
      },
    );
    html = result.value;
  } catch {
    throw unreadable();
  }
  return { title, html };
}
