/**
 * The Porter (1980) stemmer exactly as SQLite's FTS5 `porter` tokenizer applies it
 * (ext/fts5/fts5_tokenize.c), so that the in-memory index, the answerer and FTS5 reduce every
 * word to the same term by construction.
 *
 * FTS5 works on the UTF-8 bytes of a token that `unicode61` has already folded (lowercase, no
 * diacritics): tokens shorter than 3 or longer than 64 bytes pass through, every byte other
 * than a, e, i, o, u (and y after a consonant) is a consonant (digits and non-ASCII bytes
 * included: "1990s" → "1990"), and each step of a group takes the first suffix that matches,
 * applying it only when its condition holds (the original algorithm's longest-match rule).
 * Unlike Porter2 there is no "-ly" rule and no exception list: "early" → "earli",
 * "only" → "onli", "quickly" → "quickli".
 */

const MIN_BYTES = 3;
const MAX_BYTES = 64;

const A = 97,
  E = 101,
  I = 105,
  O = 111,
  U = 117,
  Y = 121;
const ch = (s: string): number => s.charCodeAt(0);

function isVowel(c: number, yIsVowel: boolean): boolean {
  return c === A || c === E || c === I || c === O || c === U || (yIsVowel && c === Y);
}

/** Length of the first vowel-run-then-consonant in w[from, from+n), +1; 0 when there is none. */
function gobbleVC(w: number[], from: number, n: number, prevConsonant: boolean): number {
  let consonant = prevConsonant;
  let i = 0;
  for (; i < n; i++) {
    consonant = !isVowel(w[from + i] as number, consonant);
    if (!consonant) break;
  }
  for (i++; i < n; i++) {
    consonant = !isVowel(w[from + i] as number, consonant);
    if (consonant) return i + 1;
  }
  return 0;
}

/** m > 0 for the first n bytes. */
const mGt0 = (w: number[], n: number): boolean => gobbleVC(w, 0, n, false) > 0;
/** m > 1. */
function mGt1(w: number[], n: number): boolean {
  const k = gobbleVC(w, 0, n, false);
  return k > 0 && gobbleVC(w, k, n - k, true) > 0;
}
/** m = 1. */
function mEq1(w: number[], n: number): boolean {
  const k = gobbleVC(w, 0, n, false);
  return k > 0 && gobbleVC(w, k, n - k, true) === 0;
}
/** *o: ends consonant-vowel-consonant, the last not w, x or y. */
function oStar(w: number[], n: number): boolean {
  const last = w[n - 1];
  if (last === ch('w') || last === ch('x') || last === Y) return false;
  let mask = 0;
  let consonant = false;
  for (let i = 0; i < n; i++) {
    consonant = !isVowel(w[i] as number, consonant);
    mask = ((mask << 1) + (consonant ? 1 : 0)) & 0xff;
  }
  return (mask & 7) === 5;
}
/** *v*: a vowel somewhere (y counts after the first byte). */
function hasVowel(w: number[], n: number): boolean {
  for (let i = 0; i < n; i++) if (isVowel(w[i] as number, i > 0)) return true;
  return false;
}
/** m > 1 and the stem ends in s or t (for -ion). */
const mGt1SorT = (w: number[], n: number): boolean => (w[n - 1] === ch('s') || w[n - 1] === ch('t')) && mGt1(w, n);

type Condition = (w: number[], n: number) => boolean;
interface Rule {
  suffix: number[];
  output: number[];
  when: Condition;
}
const bytes = (s: string): number[] => [...s].map(ch);
/** Rules by the byte before the last, in the order the first matching suffix is taken. */
function rules(table: Record<string, [string, string][]>, when: Condition | ((suffix: string) => Condition)): Map<number, Rule[]> {
  const out = new Map<number, Rule[]>();
  for (const [key, list] of Object.entries(table)) {
    out.set(
      ch(key),
      list.map(([suffix, output]) => ({
        suffix: bytes(suffix),
        output: bytes(output),
        when: when.length === 1 ? (when as (s: string) => Condition)(suffix) : (when as Condition),
      })),
    );
  }
  return out;
}

const STEP2 = rules(
  {
    a: [
      ['ational', 'ate'],
      ['tional', 'tion'],
    ],
    c: [
      ['enci', 'ence'],
      ['anci', 'ance'],
    ],
    e: [['izer', 'ize']],
    g: [['logi', 'log']],
    l: [
      ['bli', 'ble'],
      ['alli', 'al'],
      ['entli', 'ent'],
      ['eli', 'e'],
      ['ousli', 'ous'],
    ],
    o: [
      ['ization', 'ize'],
      ['ation', 'ate'],
      ['ator', 'ate'],
    ],
    s: [
      ['alism', 'al'],
      ['iveness', 'ive'],
      ['fulness', 'ful'],
      ['ousness', 'ous'],
    ],
    t: [
      ['aliti', 'al'],
      ['iviti', 'ive'],
      ['biliti', 'ble'],
    ],
  },
  mGt0,
);
const STEP3 = rules(
  {
    a: [['ical', 'ic']],
    s: [['ness', '']],
    t: [
      ['icate', 'ic'],
      ['iciti', 'ic'],
    ],
    u: [['ful', '']],
    v: [['ative', '']],
    z: [['alize', 'al']],
  },
  mGt0,
);
const STEP4 = rules(
  {
    a: [['al', '']],
    c: [
      ['ance', ''],
      ['ence', ''],
    ],
    e: [['er', '']],
    i: [['ic', '']],
    l: [
      ['able', ''],
      ['ible', ''],
    ],
    n: [
      ['ant', ''],
      ['ement', ''],
      ['ment', ''],
      ['ent', ''],
    ],
    o: [
      ['ion', ''],
      ['ou', ''],
    ],
    s: [['ism', '']],
    t: [
      ['ate', ''],
      ['iti', ''],
    ],
    u: [['ous', '']],
    v: [['ive', '']],
    z: [['ize', '']],
  },
  (suffix: string) => (suffix === 'ion' ? mGt1SorT : mGt1),
);

function endsWith(w: number[], n: number, suffix: number[]): boolean {
  if (n <= suffix.length) return false; // FTS5 requires a non-empty stem
  for (let i = 0; i < suffix.length; i++) if (w[n - suffix.length + i] !== suffix[i]) return false;
  return true;
}

/** Applies the first rule whose suffix matches (if its condition holds); returns the new length. */
function applyStep(w: number[], n: number, table: Map<number, Rule[]>): number {
  const list = table.get(w[n - 2] as number);
  if (!list) return n;
  for (const r of list) {
    if (!endsWith(w, n, r.suffix)) continue;
    const stem = n - r.suffix.length;
    if (!r.when(w, stem)) return n;
    for (let i = 0; i < r.output.length; i++) w[stem + i] = r.output[i] as number;
    return stem + r.output.length;
  }
  return n;
}

function step1a(w: number[], n: number): number {
  if (w[n - 1] !== ch('s')) return n;
  if (w[n - 2] === E) {
    if ((n > 4 && w[n - 4] === ch('s') && w[n - 3] === ch('s')) || (n > 3 && w[n - 3] === I)) return n - 2;
    return n - 1;
  }
  return w[n - 2] !== ch('s') ? n - 1 : n;
}

/** Step 1b: -eed, -ed, -ing; `removed` tells whether -ed/-ing went (then 1b2 repairs the stem). */
function step1b(w: number[], n: number): { n: number; removed: boolean } {
  const pen = w[n - 2];
  if (pen === E) {
    if (endsWith(w, n, EED)) return { n: mGt0(w, n - 3) ? n - 1 : n, removed: false };
    if (endsWith(w, n, ED) && hasVowel(w, n - 2)) return { n: n - 2, removed: true };
  } else if (pen === ch('n')) {
    if (endsWith(w, n, ING) && hasVowel(w, n - 3)) return { n: n - 3, removed: true };
  }
  return { n, removed: false };
}
const EED = bytes('eed'),
  ED = bytes('ed'),
  ING = bytes('ing');

function step1b2(w: number[], n: number): number {
  const pen = w[n - 2];
  const last = w[n - 1];
  // at → ate, bl → ble, iz → ize
  if (n > 2 && ((pen === A && last === ch('t')) || (pen === ch('b') && last === ch('l')) || (pen === I && last === ch('z')))) {
    w[n] = E;
    return n + 1;
  }
  const c = last as number;
  if (!isVowel(c, false) && c !== ch('l') && c !== ch('s') && c !== ch('z') && c === pen) return n - 1;
  if (mEq1(w, n) && oStar(w, n)) {
    w[n] = E;
    return n + 1;
  }
  return n;
}

/** Stems the bytes of one folded token in place; returns the new length. */
function stemBytes(w: number[], length: number): number {
  let n = step1a(w, length);
  const b = step1b(w, n);
  n = b.n;
  if (b.removed) n = step1b2(w, n);
  if (w[n - 1] === Y && hasVowel(w, n - 1)) w[n - 1] = I;
  n = applyStep(w, n, STEP2);
  n = applyStep(w, n, STEP3);
  n = applyStep(w, n, STEP4);
  if (w[n - 1] === E && (mGt1(w, n - 1) || (mEq1(w, n - 1) && !oStar(w, n - 1)))) n--;
  if (n > 1 && w[n - 1] === ch('l') && w[n - 2] === ch('l') && mGt1(w, n - 1)) n--;
  return n;
}

// eslint-disable-next-line no-control-regex
const ASCII_RE = /^[\x00-\x7f]*$/;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * FTS5's porter step for one token already folded as `unicode61` folds it (lowercase, no
 * diacritics). Pure; callers cache.
 */
export function porterStem(token: string): string {
  if (ASCII_RE.test(token)) {
    if (token.length < MIN_BYTES || token.length > MAX_BYTES) return token;
    const w = new Array<number>(token.length + 1);
    for (let i = 0; i < token.length; i++) w[i] = token.charCodeAt(i);
    const n = stemBytes(w, token.length);
    return String.fromCharCode(...w.slice(0, n));
  }
  const encoded = encoder.encode(token);
  if (encoded.length < MIN_BYTES || encoded.length > MAX_BYTES) return token;
  const w = [...encoded, 0];
  const n = stemBytes(w, encoded.length);
  return decoder.decode(Uint8Array.from(w.slice(0, n)));
}
