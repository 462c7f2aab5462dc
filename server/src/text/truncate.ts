/**
 * Safe truncation: a text capped at a length without cutting a word, a markdown link, a URL or
 * inline code, with "…" where it was cut. Pure and deterministic.
 */

const ELLIPSIS = '\u2026';
const WORDISH_RE = /[\p{L}\p{N}\p{M}'\u2019_\u200d\ufe0f]/u;

/** Spans a cut must not fall inside: markdown links/images, bare URLs, inline code. */
export const ATOMIC_SPAN_PATTERNS: readonly RegExp[] = [
  /!?\[[^\]\n]*\]\([^)\s]*(?:\s+"[^"]*")?\)/g,
  /\b(?:https?|ftp):\/\/[^\s<>"]+|\bwww\.[^\s<>"]+/gi,
  /`[^`\n]+`/g,
];

/** Marks positions a cut must not fall on: inside markdown links/images, bare URLs, inline code. */
function atomicMask(text: string): Uint8Array {
  const mask = new Uint8Array(text.length + 1);
  for (const re of ATOMIC_SPAN_PATTERNS) {
    for (const m of text.matchAll(re)) {
      const start = m.index ?? 0;
      mask.fill(1, start + 1, start + m[0].length); // cutting right before or after the span is fine
    }
  }
  return mask;
}

/** CJK characters and CJK punctuation (、。「」…, full-width forms): each ends a word. */
const CJK_CUT_RE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303f\uff00-\uffef]/u;

function isCjk(ch: string): boolean {
  return CJK_CUT_RE.test(ch);
}

/** Whether cutting between text[i-1] and text[i] keeps words (and code points) whole. */
function isWordBoundary(text: string, i: number): boolean {
  const before = text[i - 1] ?? '';
  const after = text[i] ?? '';
  const code = text.charCodeAt(i);
  if (code >= 0xdc00 && code <= 0xdfff) return false; // inside a surrogate pair
  if (/[\p{M}\u200d\ufe0f]/u.test(after)) return false; // a combining mark belongs to its base
  if (isCjk(before) || isCjk(after)) return true;
  return !(WORDISH_RE.test(before) && WORDISH_RE.test(after));
}

/**
 * Best cut position ≤ limit: the last whitespace or CJK character boundary (CJK is written
 * without spaces: each character ends a word), else any word boundary, outside atomic spans.
 */
function findCut(text: string, limit: number, blocked: Uint8Array): number {
  for (let i = limit; i > 0; i--) {
    if (blocked[i] === 1) continue;
    if (/\s/.test(text[i] ?? '')) return i;
    if ((isCjk(text[i - 1] ?? '') || isCjk(text[i] ?? '')) && isWordBoundary(text, i)) return i;
  }
  for (let i = limit; i > 0; i--) {
    if (isWordBoundary(text, i) && blocked[i] !== 1) return i;
  }
  return 0;
}

/**
 * Caps `text` at `max` characters (UTF-16 units, like String#length) without cutting a
 * word, a markdown link or a URL; appends "…" when anything was cut (counted in `max`).
 * Returns "" when not even one word fits.
 */
export function truncateAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max < 2) return '';
  const limit = max - ELLIPSIS.length;
  // A span that matters starts at or before `limit`, and only a link title ('[a](url\n"b")')
  // crosses a newline, its "](" on the starting line. So without "](" up to the end of the line
  // holding `limit`, that prefix gives the same mask: a 200-character source snippet no longer
  // scans the whole passage for links, URLs and code.
  const lineEnd = text.indexOf('\n', limit);
  const prefix = lineEnd < 0 ? text : text.slice(0, lineEnd);
  let head = text.slice(0, findCut(text, limit, atomicMask(prefix.includes('](') ? text : prefix)));
  // An unclosed code fence would swallow whatever the client renders after the answer.
  if ((head.match(/^ {0,3}```/gm) ?? []).length % 2 === 1) head = head.slice(0, head.lastIndexOf('```'));
  // Dangling separators read badly before an ellipsis ("Open the app, …").
  head = head.replace(/[\s,;:\-\u2013\u2014(\[{/&]+$/u, '');
  return head ? head + ELLIPSIS : '';
}
