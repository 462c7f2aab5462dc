/**
 * Splits a document into retrieval chunks that follow its structure.
 *
 * Markdown (and HTML, converted to markdown first) is cut into sections at headings; a
 * chunk never spans two sections. Inside a section, whole paragraphs are packed up to
 * `targetChars`; an over-long paragraph is split at sentence boundaries, an over-long
 * sentence at word boundaries, and nothing ever exceeds `maxChars`. Fenced code blocks
 * are kept whole unless a single block alone exceeds `maxChars` (then it is split at line
 * boundaries and every piece is re-fenced, so each chunk is still valid markdown).
 */
import { sentenceUnits } from '../text/sentences.js';
import { htmlToMarkdownText } from './html-to-text.js';

export type DocumentFormat = 'text' | 'markdown' | 'html';

export interface ChunkDraft {
  ordinal: number;
  text: string;
  headingPath: string[];
  /** The id of the section's heading on the source page (HTML `id`), null when it has none. */
  anchor: string | null;
}

export interface ChunkOptions {
  targetChars?: number;
  maxChars?: number;
}

/**
 * Leading and trailing newlines removed. Not with `/\n+$/`: a regex anchored at the end is
 * retried from every position of a long inner run (quadratic; 80k blanks took seconds).
 */
function trimNewlines(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) === 10) start++;
  while (end > start && text.charCodeAt(end - 1) === 10) end--;
  return text.slice(start, end);
}

/** Trailing spaces and tabs removed, in linear time (see trimNewlines). */
function trimEndSpacesTabs(text: string): string {
  let end = text.length;
  while (end > 0 && (text.charCodeAt(end - 1) === 32 || text.charCodeAt(end - 1) === 9)) end--;
  return text.slice(0, end);
}

const DEFAULT_TARGET = 1000;
const DEFAULT_MAX = 2000;

interface Block {
  kind: 'para' | 'code';
  text: string;
}
interface Section {
  headingPath: string[];
  anchor: string | null;
  blocks: Block[];
}
/** A piece of text plus the separator that joins it to the piece before it in the source. */
interface Unit {
  text: string;
  sep: string;
}

// ---------------------------------------------------------------------------
// Markdown structure
// ---------------------------------------------------------------------------

const ATX_RE = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const SETEXT_H1_RE = /^ {0,3}=+[ \t]*$/;
const SETEXT_H2_RE = /^ {0,3}-+[ \t]*$/;
const HR_RE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const FENCE_RE = /^ {0,3}(`{3,}|~{3,})/;
const NOT_SETEXT_CONTENT_RE = /^\s*(?:[-*+]\s|\d{1,9}[.)]\s|>|\|)/;

/** Heading text as a reader sees it: links, emphasis, code ticks and HTML tags removed. */
export function inlineMarkdownToText(text: string): string {
  return text
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\[[^\]]*\]/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/`+([^`]*)`+/g, '$1')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/\*(\S(?:.*?\S)?)\*/g, '$1')
    .replace(/(^|[^\p{L}\p{N}_])_(\S(?:.*?\S)?)_(?![\p{L}\p{N}_])/gu, '$1$2')
    .replace(/~~(.+?)~~/g, '$1')
    .replace(/\\([\\`*_{}[\]()#+\-.!|])/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * A heading's page anchor, written ` {#id}` after its text: by html-to-text.ts for an HTML
 * heading with its own `id` (kramdown/Pandoc write the same in markdown). Only such ids become
 * a chunk's anchor: a slug we made up may not exist on the page the document's URL names.
 */
const HEADING_ID_RE = /[ \t]*\{#([A-Za-z0-9_][\w.:-]{0,127})\}[ \t]*$/;

/** A heading's text without its ` {#id}`, and the id (null when it has none). */
export function splitHeadingId(raw: string): { text: string; id: string | null } {
  const m = HEADING_ID_RE.exec(raw);
  return m ? { text: raw.slice(0, m.index), id: m[1] as string } : { text: raw, id: null };
}

/** Skips YAML front matter ("---" … "---") at the very top: metadata, not content. */
function frontMatterEnd(lines: string[]): number {
  if (lines[0]?.trim() !== '---') return 0;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.trim() === '---' || line.trim() === '...') {
      return lines.slice(1, i).some((l) => /^[\w-]+\s*:/.test(l)) ? i + 1 : 0;
    }
  }
  return 0;
}

class MarkdownSections {
  readonly sections: Section[] = [];
  private readonly trail: Array<{ level: number; text: string }> = [];
  private current: Section = { headingPath: [], anchor: null, blocks: [] };
  private paragraph: string[] = [];

  constructor() {
    this.sections.push(this.current);
  }

  line(text: string): void {
    this.paragraph.push(trimEndSpacesTabs(text));
  }

  endParagraph(): void {
    const text = trimNewlines(this.paragraph.join('\n'));
    this.paragraph = [];
    if (text.trim()) this.current.blocks.push({ kind: 'para', text });
  }

  code(text: string): void {
    this.endParagraph();
    this.current.blocks.push({ kind: 'code', text });
  }

  /** The pending paragraph, if it can be the text of a setext heading (not a list or quote). */
  setextCandidate(): string | null {
    if (this.paragraph.length === 0) return null;
    if (this.paragraph.some((l) => NOT_SETEXT_CONTENT_RE.test(l))) return null;
    return this.paragraph.map((l) => l.trim()).join(' ');
  }

  heading(level: number, raw: string): void {
    const { text: rawText, id } = splitHeadingId(raw);
    const text = inlineMarkdownToText(rawText);
    this.paragraph = [];
    if (!text) return;
    while ((this.trail[this.trail.length - 1]?.level ?? 0) >= level) this.trail.pop();
    this.trail.push({ level, text });
    this.current = { headingPath: this.trail.map((h) => h.text), anchor: id, blocks: [] };
    this.sections.push(this.current);
  }
}

function parseMarkdown(markdown: string): Section[] {
  const lines = markdown.split('\n');
  const doc = new MarkdownSections();
  for (let i = frontMatterEnd(lines); i < lines.length; i++) {
    const line = lines[i] ?? '';
    const fence = FENCE_RE.exec(line);
    if (fence) {
      const end = closingFence(lines, i, fence[1] ?? '```');
      doc.code(
        lines
          .slice(i, end + 1)
          .join('\n')
          .trimEnd(),
      );
      i = end;
      continue;
    }
    if (/^\s*<!--/.test(line)) {
      doc.endParagraph();
      i = commentEnd(lines, i);
      continue;
    }
    const atx = ATX_RE.exec(line);
    if (atx) {
      doc.endParagraph();
      doc.heading(atx[1]?.length ?? 1, atx[2] ?? '');
      continue;
    }
    const setext = SETEXT_H1_RE.test(line) ? 1 : SETEXT_H2_RE.test(line) ? 2 : 0;
    const setextText = setext ? doc.setextCandidate() : null;
    if (setextText !== null) {
      doc.heading(setext, setextText);
      continue;
    }
    if (HR_RE.test(line) || line.trim() === '') {
      doc.endParagraph();
      continue;
    }
    doc.line(line);
  }
  doc.endParagraph();
  return doc.sections;
}

/** Index of the line closing the fence opened at `open`; an unclosed fence runs to the end. */
function closingFence(lines: string[], open: number, marker: string): number {
  const closeRe = new RegExp(`^ {0,3}${marker[0] === '~' ? '~' : '`'}{${marker.length},}[ \\t]*$`);
  for (let j = open + 1; j < lines.length; j++) if (closeRe.test(lines[j] ?? '')) return j;
  return lines.length - 1;
}

/** Index of the line ending an HTML comment that starts at `start`. */
function commentEnd(lines: string[], start: number): number {
  for (let j = start; j < lines.length; j++) if ((lines[j] ?? '').includes('-->')) return j;
  return lines.length - 1;
}

function parsePlainText(text: string): Section[] {
  const blocks = text
    .split(/\n[ \t]*\n/)
    .map((p) => p.replace(/^\n+/, '').trimEnd())
    .filter((p) => p.trim() !== '')
    .map((p): Block => ({ kind: 'para', text: p }));
  return [{ headingPath: [], anchor: null, blocks }];
}

// ---------------------------------------------------------------------------
// Splitting over-long blocks
// ---------------------------------------------------------------------------

/** Cuts a string into ≤ max pieces without splitting a surrogate pair. */
function hardSplit(text: string, max: number): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > max) {
    let cut = max;
    const code = rest.charCodeAt(cut);
    if (code >= 0xdc00 && code <= 0xdfff) cut--;
    pieces.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  if (rest) pieces.push(rest);
  return pieces;
}

/** Words packed into pieces of ≤ target chars; a word longer than max is cut hard. */
function splitWords(sentence: string, target: number, max: number): Unit[] {
  const words = sentence
    .split(/\s+/)
    .filter(Boolean)
    .flatMap((w) => (w.length > max ? hardSplit(w, max) : [w]));
  return words.map((w) => ({ text: w, sep: ' ' })).reduce<Unit[]>((acc, unit) => packInto(acc, unit, target), []);
}

/** Sentences of an over-long paragraph, each with the separator it had in the source. */
function splitParagraph(text: string, target: number, max: number): Unit[] {
  const units: Unit[] = [];
  let prevEnd = -1;
  for (const sentence of sentenceUnits(text)) {
    const sep = prevEnd >= 0 && text.slice(prevEnd, sentence.start).includes('\n') ? '\n' : ' ';
    prevEnd = sentence.end;
    const raw = text.slice(sentence.start, sentence.end);
    if (raw.length <= max) {
      units.push({ text: raw, sep });
      continue;
    }
    splitWords(raw, target, max).forEach((piece, i) => units.push({ text: piece.text, sep: i === 0 ? sep : ' ' }));
  }
  return units;
}

/** A code block too big for one chunk: line groups of ≤ target chars, each re-fenced. */
function splitCode(block: string, target: number, max: number): Unit[] {
  const lines = block.split('\n');
  const open = lines[0] ?? '```';
  const closeLine = lines.length > 1 && FENCE_RE.test(lines[lines.length - 1] ?? '') ? lines.pop() : undefined;
  const close = closeLine?.trim() || (FENCE_RE.exec(open)?.[1] ?? '```');
  const body = lines.slice(1);
  const overhead = open.length + close.length + 2;
  const room = Math.max(1, max - overhead);
  const pieces = body
    .flatMap((line) => (line.length > room ? hardSplit(line, room) : [line]))
    .map((line): Unit => ({ text: line, sep: '\n' }))
    .reduce<Unit[]>((acc, unit) => packInto(acc, unit, Math.max(1, Math.min(target, max) - overhead)), []);
  return pieces.map((p) => ({ text: `${open}\n${p.text}\n${close}`, sep: '\n\n' }));
}

/** Appends `unit` to the last piece if the result stays ≤ limit, else starts a new piece. */
function packInto(pieces: Unit[], unit: Unit, limit: number): Unit[] {
  const last = pieces[pieces.length - 1];
  if (last && last.text.length + unit.sep.length + unit.text.length <= limit) {
    last.text += unit.sep + unit.text;
  } else {
    pieces.push({ text: unit.text, sep: unit.sep });
  }
  return pieces;
}

/** A section's blocks as packable units: small blocks whole, big ones pre-split. */
function sectionUnits(blocks: Block[], target: number, max: number): Unit[] {
  return blocks.flatMap((block): Unit[] => {
    if (block.kind === 'code') {
      return block.text.length <= max ? [{ text: block.text, sep: '\n\n' }] : splitCode(block.text, target, max);
    }
    if (block.text.length <= target) return [{ text: block.text, sep: '\n\n' }];
    return splitParagraph(block.text, target, max).map((u, i) => (i === 0 ? { text: u.text, sep: '\n\n' } : u));
  });
}

// ---------------------------------------------------------------------------
// Entry point
// ---------------------------------------------------------------------------

function sectionsOf(input: { content: string; format: DocumentFormat }): Section[] {
  const content = (input.content ?? '').replace(/^\ufeff/, '').replace(/\r\n?/g, '\n');
  if (input.format === 'html') return parseMarkdown(htmlToMarkdownText(content).text);
  if (input.format === 'text') return parsePlainText(content);
  return parseMarkdown(content);
}

/**
 * Chunks a document. `headingPath` is the heading trail of the chunk's section and
 * `anchor` the page's own id of its innermost heading when it had one (` {#id}`: see
 * splitHeadingId), else null. Chunk text is body only: heading lines are not repeated in it, so callers
 * that index chunks should index `headingPath` (and the document title) alongside.
 */
export function chunkDocument(input: { title: string; content: string; format: DocumentFormat }, opts: ChunkOptions = {}): ChunkDraft[] {
  const max = Math.max(1, Math.floor(opts.maxChars ?? Math.max(DEFAULT_MAX, opts.targetChars ?? 0)));
  const target = Math.max(1, Math.min(max, Math.floor(opts.targetChars ?? DEFAULT_TARGET)));
  const chunks: ChunkDraft[] = [];
  for (const section of sectionsOf(input)) {
    const pieces = sectionUnits(section.blocks, target, max).reduce<Unit[]>((acc, u) => packInto(acc, { ...u }, target), []);
    for (const piece of pieces) {
      const text = piece.text.replace(/^\s*\n/, '').trimEnd();
      if (!text.trim()) continue;
      // Defensive: the packing above keeps pieces ≤ max; this guarantees it.
      for (const part of text.length > max ? hardSplit(text, max) : [text]) {
        chunks.push({ ordinal: chunks.length, text: part, headingPath: [...section.headingPath], anchor: section.anchor });
      }
    }
  }
  return chunks;
}
