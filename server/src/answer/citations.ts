/**
 * Citation markers in a model's answer, rewritten as the text streams by.
 *
 * The model cites passages by their prompt number ("[3]", "[1, 4]"). The answer's sources are
 * the cited passages, numbered in order of first citation, so the text is renumbered to match
 * `metadata.sources` ("[3] … [1]" becomes "[1] … [2]"). Markers naming no passage are dropped
 * with the space before them. Text in code (fenced blocks, `inline`) and brackets glued to an
 * ASCII word (`items[1]`) are not citations. Output is withheld only while a marker might be
 * incomplete, so the stream stays live.
 */

/** A complete marker, with the spaces before it: " [1]", "[2, 3]", "[4; 5]". */
const MARKER_RE = /^([ \t]*)\[(\d{1,3}(?:[ \t]*[,;][ \t]*\d{1,3})*)\]/;
/** What might still become a marker once more text arrives. */
const PARTIAL_MARKER_RE = /^[ \t]*(?:\[[\d \t,;]{0,24})?$/;
/** A fence line's opening: up to three spaces and three backticks or tildes. */
const PARTIAL_FENCE_RE = /^ {0,3}(?:`{1,2}|~{1,2})?$/;
const FENCE_RE = /^ {0,3}(`{3,}|~{3,})/;
const ASCII_WORD_RE = /[A-Za-z0-9_]/;

export interface CitationMapper {
  /** Text to pass on; an ambiguous tail is kept back for the next call. */
  push(text: string): string;
  /** Everything kept back, resolved. */
  end(): string;
  /** Prompt numbers (1-based) of the cited passages, in citation order: output [k] is order[k-1]. */
  readonly order: readonly number[];
  /** Where each output marker ends (its offset just past "]") and its output number. */
  readonly markers: readonly { end: number; number: number }[];
}

export function createCitationMapper(passageCount: number): CitationMapper {
  const order: number[] = [];
  const markers: { end: number; number: number }[] = [];
  let pending = '';
  let written = 0; // characters output so far
  let lastOut = ''; // last character output
  let lineStart = true;
  let fence: string | null = null; // the fence run that opened the current code block

  function renumber(body: string): number[] {
    const out: number[] = [];
    for (const raw of body.split(/[,;]/)) {
      const n = Number(raw.trim());
      if (!Number.isInteger(n) || n < 1 || n > passageCount) continue;
      let k = order.indexOf(n);
      if (k === -1) k = order.push(n) - 1;
      if (!out.includes(k + 1)) out.push(k + 1);
    }
    return out;
  }

  function run(final: boolean): string {
    const s = pending;
    let out = '';
    const emit = (text: string) => {
      out += text;
      if (text) lastOut = text[text.length - 1] as string;
    };
    let i = 0;
    while (i < s.length) {
      const rest = s.slice(i);
      if (lineStart) {
        const f = FENCE_RE.exec(rest);
        if (f) {
          const run = f[1] as string;
          if (fence === null) fence = run;
          else if (run[0] === fence[0] && run.length >= fence.length) fence = null;
          emit(f[0]);
          i += f[0].length;
          lineStart = false;
          continue;
        }
        if (!final && PARTIAL_FENCE_RE.test(rest) && rest.length > 0 && !/^ +$/.test(rest)) break;
        if (!final && /^ {1,3}$/.test(rest)) break;
      }
      const ch = s[i] as string;
      if (ch === '\n') {
        emit(ch);
        i++;
        lineStart = true;
        continue;
      }
      lineStart = false;
      if (fence !== null) {
        emit(ch);
        i++;
        continue;
      }
      if (ch === '`') {
        const open = /^`+/.exec(rest)?.[0] ?? '`';
        const lineEnd = rest.indexOf('\n');
        const line = lineEnd === -1 ? rest : rest.slice(0, lineEnd);
        const close = new RegExp(`(?<!\`)${open}(?!\`)`).exec(line.slice(open.length));
        if (close) {
          const span = line.slice(0, open.length + close.index + open.length);
          emit(span);
          i += span.length;
          continue;
        }
        if (lineEnd === -1 && !final) break; // the code span may close later on this line
        emit(open); // never closed on its line: literal backticks
        i += open.length;
        continue;
      }
      if (ch === '[' || ch === ' ' || ch === '\t') {
        const m = MARKER_RE.exec(rest);
        const glued = m && !(m[1] as string).length && ASCII_WORD_RE.test(lastOut);
        if (m && !glued) {
          const numbers = renumber(m[2] as string);
          if (numbers.length) {
            emit(m[1] as string);
            for (const n of numbers) {
              emit(`[${n}]`);
              markers.push({ end: written + out.length, number: n });
            }
          }
          i += m[0].length;
          continue;
        }
        if (!m && !final && PARTIAL_MARKER_RE.test(rest)) break;
      }
      emit(ch);
      i++;
    }
    pending = s.slice(i);
    written += out.length;
    return out;
  }

  return {
    push(text) {
      pending += text;
      return run(false);
    },
    end() {
      return run(true);
    },
    get order() {
      return order;
    },
    get markers() {
      return markers;
    },
  };
}

/** Renumbers the citations of a whole text at once. */
export function mapCitations(text: string, passageCount: number): { text: string; order: number[] } {
  const mapper = createCitationMapper(passageCount);
  const out = mapper.push(text) + mapper.end();
  return { text: out, order: [...mapper.order] };
}

/** Output numbers of the markers that lie wholly inside the first `length` characters. */
export function citedWithin(markers: readonly { end: number; number: number }[], length: number): number[] {
  const seen: number[] = [];
  for (const m of markers) if (m.end <= length && !seen.includes(m.number)) seen.push(m.number);
  return seen;
}
