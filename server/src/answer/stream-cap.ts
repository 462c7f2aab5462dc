/**
 * `maxResponseLength` for an answer that streams: a hard cap that never cuts inside a word,
 * a link, inline code or a fenced block, applied while the text is still arriving.
 *
 * The final answer is `truncateAtWord(text, max)` (or the text itself when it fits). While
 * text arrives, only what that final answer is sure to start with is released:
 * - far from the cap (more than MARGIN characters before it) everything may go out, partial
 *   words included, so the first token is not held back: a cut, if one comes, will fall on a
 *   space after it;
 * - near the cap, only whole words followed by a space (or CJK characters) go out;
 * - never a construct that may still grow into a link, URL or code span, nor an unclosed
 *   fenced code block.
 * `finish` returns the final text and the part of it not yet released; in the rare case the
 * final text does not extend what was released (the provider itself stopped mid-word, or a
 * 64-character "word"), `rest` is null and the final text stands alone.
 */
import { ATOMIC_SPAN_PATTERNS, truncateAtWord } from '../text/truncate.js';

const ELLIPSIS = '\u2026';
/** Distance from the cap beyond which partial words may be released. */
const MARGIN = 64;
/** Text read past the cap before the provider can be stopped: the cut point is settled by then. */
export const OVERREAD = 256;
/** What truncateAtWord strips from the end of a cut head: a release may not end on it. */
const STRIPPED_AT_END = /[\s,;:\-\u2013\u2014(\[{/&]/u;
/** As truncateAtWord: CJK characters and punctuation each end a word. */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\u3000-\u303f\uff00-\uffef]/u;
const COMBINING = /[\p{M}\u200d\ufe0f]/u;
/** Text at the end that may still become a link: "[text", "[text]", "[text](url", "[text](url "title". */
const PARTIAL_LINK = /!?\[[^\]\n]*(?:\](?:\([^)\s]*(?:\s+(?:"[^"]*"?)?)?)?)?$/;
const PARTIAL_URL = /(?:\b(?:https?|ftp):\/\/|\bwww\.)[^\s<>"]*$/i;
/** The start of a URL scheme split across chunks: "htt", "https:/", "ww". */
const PARTIAL_SCHEME = /\b(?:h(?:t(?:t(?:p(?:s?(?::\/?)?)?)?)?)?|f(?:t(?:p(?::\/?)?)?)?|w(?:w(?:w)?)?)$/i;
const FENCE_LINE = /^ {0,3}```/gm;
const PARTIAL_FENCE = /(?:^|\n) {0,3}`{1,2}$/;

export interface StreamCap {
  /** Adds text; returns the part that may be shown now. */
  push(text: string): string;
  /** Everything received. */
  readonly full: string;
  /** Everything shown so far. */
  readonly released: string;
  /** The answer will be cut and enough text is in to place the cut: stop the provider. */
  readonly saturated: boolean;
  /** The final answer; `cutShort` when the provider stopped before finishing (token limit). */
  finish(cutShort: boolean): { text: string; rest: string | null };
}

/**
 * Where the settled part of `text` ends, looking from `from` on: before a construct that more
 * text could still turn into a link, URL, code span or code block.
 */
function settledEnd(text: string, from: number): number {
  const tail = text.slice(from);
  let end = tail.length;
  const link = PARTIAL_LINK.exec(tail);
  if (link) end = Math.min(end, link.index);
  const url = PARTIAL_URL.exec(tail) ?? PARTIAL_SCHEME.exec(tail);
  if (url) end = Math.min(end, url.index);
  const lineFrom = tail.lastIndexOf('\n') + 1;
  const line = tail.slice(lineFrom);
  if ((line.match(/`/g)?.length ?? 0) % 2 === 1) end = Math.min(end, lineFrom + line.lastIndexOf('`'));
  let result = from + end;
  if (text.includes('`')) {
    const fences = [...text.matchAll(FENCE_LINE)];
    if (fences.length % 2 === 1) result = Math.min(result, (fences.at(-1) as RegExpMatchArray).index ?? result);
    const partial = PARTIAL_FENCE.exec(text);
    if (partial) result = Math.min(result, partial.index);
  }
  return Math.max(from, result);
}

export function createStreamCap(max: number): StreamCap {
  let text = '';
  let released = 0;

  /** Complete atomic spans of the unreleased text. */
  function spansOf(from: number): [number, number][] {
    const tail = text.slice(from);
    const spans: [number, number][] = [];
    for (const re of ATOMIC_SPAN_PATTERNS)
      for (const m of tail.matchAll(re)) spans.push([from + (m.index ?? 0), from + (m.index ?? 0) + m[0].length]);
    // A closed code block too: a cut inside it goes back to its opening fence.
    if (tail.includes('```')) {
      const fences = [...text.matchAll(FENCE_LINE)].map((m) => m.index ?? 0);
      for (let k = 0; k + 1 < fences.length; k += 2) {
        const [open, close] = [fences[k] as number, fences[k + 1] as number];
        const lineEnd = text.indexOf('\n', close);
        const end = lineEnd === -1 ? text.length : lineEnd;
        if (end > from) spans.push([open, end]);
      }
    }
    return spans;
  }
  const inside = (spans: [number, number][], i: number) => spans.some(([s, e]) => i > s && i < e);

  function nearBoundary(i: number): boolean {
    const before = text[i - 1] ?? '';
    const at = text[i] ?? '';
    if (!before || STRIPPED_AT_END.test(before)) return false;
    if (/\s/.test(at)) return true;
    return (CJK.test(before) || CJK.test(at)) && !COMBINING.test(at);
  }

  /** The last whole-word end at or before `at` (and after what is out), else what is out. */
  function lastWordEnd(at: number, spans: [number, number][]): number {
    for (let i = Math.min(at, text.length - 1); i > released; i--) if (nearBoundary(i) && !inside(spans, i)) return i;
    return released;
  }

  function releasable(): number {
    const limit = max - ELLIPSIS.length;
    const bound = settledEnd(text, released);
    const spans = spansOf(released);
    let e = limit - MARGIN;
    let beforeConstruct = false;
    if (bound < text.length && bound <= e) {
      e = bound;
      beforeConstruct = true;
    } else {
      e = Math.min(e, bound);
    }
    // Never stop inside a complete span (a link that might straddle the cut).
    for (const [s, end] of spans) {
      if (e > s && e < end) {
        e = s;
        beforeConstruct = true;
      }
    }
    // Should the construct straddle the cut, the cut falls at the last word end before it:
    // release no further than that.
    if (beforeConstruct) e = lastWordEnd(e, spans);
    // Trailing spaces and separators wait for the next word: a cut right after them drops them.
    while (e > released && STRIPPED_AT_END.test(text[e - 1] ?? '')) e--;
    for (let i = Math.min(limit, bound, text.length - 1); i > Math.max(e, released); i--) {
      if (nearBoundary(i) && !inside(spans, i)) {
        e = i;
        break;
      }
    }
    return Math.max(e, released);
  }

  return {
    push(chunk) {
      if (!chunk) return '';
      text += chunk;
      const e = releasable();
      const out = text.slice(released, e);
      released = e;
      return out;
    },
    get full() {
      return text;
    },
    get released() {
      return text.slice(0, released);
    },
    get saturated() {
      return text.length > max + OVERREAD;
    },
    finish(cutShort) {
      const final = finalText(text, max, cutShort);
      const head = text.slice(0, released);
      return { text: final, rest: final.startsWith(head) ? final.slice(released) : null };
    },
  };
}

/** The capped answer: the text when it fits, else cut at a word; a provider-cut last word is dropped. */
export function finalText(text: string, max: number, cutShort: boolean): string {
  if (text.length > max) return truncateAtWord(text, max);
  if (!cutShort) return text;
  // The provider stopped at its token limit: the last word may be half written, a link or a
  // code block unfinished.
  let head = text.trimEnd();
  if (!CJK.test(head[head.length - 1] ?? '')) head = head.replace(/[\p{L}\p{N}\p{M}'\u2019_]+$/u, '');
  head = head.slice(0, settledEnd(head, 0)).replace(/[\s,;:\-\u2013\u2014(\[{/&]+$/u, '');
  const out = head ? head + ELLIPSIS : '';
  return out.length <= max ? out : truncateAtWord(text, max);
}
