/**
 * The first step of sentence splitting: a text's lines grouped into segments (soft-wrapped
 * paragraphs, list items, headings, table rows, fenced code blocks) that sentences.ts then cuts
 * into sentences. Markdown-aware; pure and deterministic.
 */
import { STOPWORDS } from './english.js';

export type SentenceKind = 'prose' | 'list' | 'heading' | 'code' | 'table';

const FENCE_OPEN_RE = /^ {0,3}(`{3,}|~{3,})/;
const LIST_ITEM_RE = /^\s*(?:[-*+\u2022]|\d{1,9}[.)])\s+\S/;
const HEADING_LINE_RE = /^ {0,3}#{1,6}(?:\s|$)/;
const HR_RE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const TABLE_DIVIDER_RE = /^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$/;
const BLOCKQUOTE_RE = /^\s*>/;

function isTableRow(line: string): boolean {
  return /^\s*\|/.test(line) || line.includes(' | ');
}

function lineKind(line: string): SentenceKind | 'blank' | 'skip' | 'fence' | 'quote' | 'text' {
  if (line.trim() === '') return 'blank';
  if (FENCE_OPEN_RE.test(line)) return 'fence';
  if (HR_RE.test(line) || TABLE_DIVIDER_RE.test(line)) return 'skip';
  if (HEADING_LINE_RE.test(line)) return 'heading';
  if (LIST_ITEM_RE.test(line)) return 'list';
  if (BLOCKQUOTE_RE.test(line)) return 'quote';
  if (isTableRow(line)) return 'table';
  return 'text';
}

interface Line {
  text: string;
  start: number;
  end: number;
}

function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  for (;;) {
    const nl = text.indexOf('\n', start);
    const end = nl === -1 ? text.length : nl;
    // A trailing \r (CRLF input) is not part of the line's content.
    const contentEnd = end > start && text[end - 1] === '\r' ? end - 1 : end;
    lines.push({ text: text.slice(start, contentEnd), start, end: contentEnd });
    if (nl === -1) return lines;
    start = nl + 1;
  }
}

/**
 * Sentence-ending marks: Latin ones, CJK full stops (。！？), the Devanagari danda and double
 * danda (।॥), the Arabic question mark and Urdu full stop (؟۔), the Khmer khan (។) and the
 * Burmese section mark (။). Thai and Lao end sentences with a space instead: see THAI_GAP_RE (sentences.ts).
 */
export const SENTENCE_END_CHARS = '.!?\u2026\u3002\uff01\uff1f\u0964\u0965\u061f\u06d4\u17d4\u104b';
export const CLOSERS = '"\')]}*_`\u201d\u2019\u00bb';

/** Whether `cur` continues the line before it (a hard-wrapped paragraph) rather than starting anew. */
function continuesLine(prev: string, cur: string, segmentKind: SentenceKind): boolean {
  if (segmentKind === 'heading' || segmentKind === 'table' || segmentKind === 'code') return false;
  if (segmentKind === 'list' && /^\s{2,}\S/.test(cur)) return true; // indented continuation of an item
  let trimmed = prev.trimEnd();
  while (trimmed && CLOSERS.includes(trimmed[trimmed.length - 1] ?? '')) trimmed = trimmed.slice(0, -1);
  const last = trimmed[trimmed.length - 1] ?? '';
  const first = cur.trimStart()[0] ?? '';
  if (/\p{Ll}/u.test(first)) return true;
  // Terminal punctuation: keep together and let the in-line splitter decide (abbreviations).
  if (SENTENCE_END_CHARS.includes(last)) return true;
  if (',;-\u2013\u2014(&/'.includes(last)) return true;
  // A line ending in a function word ("the", "to") cannot be a complete title or sentence.
  const lastWord = /([\p{L}']+)$/u.exec(trimmed.toLowerCase())?.[1];
  return lastWord !== undefined && STOPWORDS.has(lastWord);
}

export interface Segment {
  start: number;
  end: number;
  kind: SentenceKind;
}

/** Groups lines into segments: paragraphs (soft-wrapped), list items, headings, table rows, code fences. */
export function segmentLines(text: string): Segment[] {
  const lines = splitLines(text);
  const segments: Segment[] = [];
  let current: (Segment & { lastLine: string }) | null = null;
  const close = (): void => {
    if (current) segments.push({ start: current.start, end: current.end, kind: current.kind });
    current = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as Line;
    const kind = lineKind(line.text);
    if (kind === 'fence') {
      close();
      const end = fenceEnd(lines, i);
      segments.push({ start: line.start, end: (lines[end] as Line).end, kind: 'code' });
      i = end;
      continue;
    }
    if (kind === 'blank' || kind === 'skip') {
      close();
      continue;
    }
    if (current && kind === 'text' && continuesLine(current.lastLine, line.text, current.kind)) {
      current.end = line.end;
      current.lastLine = line.text;
      continue;
    }
    close();
    const segKind: SentenceKind = kind === 'text' || kind === 'quote' ? 'prose' : kind;
    current = { start: line.start, end: line.end, kind: segKind, lastLine: line.text };
  }
  close();
  return segments;
}

/** Index of the line closing the fence opened at `open` (the last line when unclosed). */
function fenceEnd(lines: Line[], open: number): number {
  const marker = FENCE_OPEN_RE.exec((lines[open] as Line).text)?.[1] ?? '```';
  const closeRe = new RegExp(`^ {0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}\\s*$`);
  for (let j = open + 1; j < lines.length; j++) {
    if (closeRe.test((lines[j] as Line).text)) return j;
  }
  return lines.length - 1;
}
