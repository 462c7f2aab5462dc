/**
 * Words as Parley cuts them: `tokenize` (the words answering and matching read), `ftsTokens`
 * (exactly as SQLite FTS5's unicode61 tokenizer cuts and folds them) and `stem` (FTS5's own
 * Porter), so every engine reduces a word to the same term. Pure and deterministic.
 */
import { porterStem } from './porter.js';

// ---------------------------------------------------------------------------
// Tokens
// ---------------------------------------------------------------------------

/**
 * A word: letters/digits of any script, with combining marks, and inner apostrophes
 * ("don't", "user's"). Apostrophes are normalised to ASCII `'` and kept, so "don't" is
 * one token "don't" (and matches the stopword list); stem() drops a possessive "'s".
 */
const WORD_RE = /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*(?:['\u2019\u02bc][\p{L}\p{N}][\p{L}\p{M}\p{N}]*)*/gu;

/**
 * Han and kana are written without spaces, so a run of them is a phrase, not a word.
 * Emitting each ideograph/kana separately gives partial matches a chance.
 */
const CJK_CHAR_RE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const CJK_SPLIT_RE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+/gu;

/** WORD_RE restricted to ASCII: the same tokens for ASCII text, several times faster. */
const ASCII_WORD_RE = /[a-z0-9]+(?:'[a-z0-9]+)*/g;
// eslint-disable-next-line no-control-regex
export const ASCII_ONLY_RE = /^[\x00-\x7f]*$/;

/** Lowercased word tokens in document order (duplicates kept). */
export function tokenize(text: string): string[] {
  // Most knowledge is ASCII: no normalisation, ideographs or marks to handle.
  if (ASCII_ONLY_RE.test(text)) return text.toLowerCase().match(ASCII_WORD_RE) ?? [];
  const out: string[] = [];
  // NFKC folds compatibility forms (ligatures, full-width letters) so they match plain ones.
  // Soft hyphens and zero-width spaces are invisible; left in, they would split words.
  const normalised = text
    .replace(/[\u00ad\u200b\u2060\ufeff]/g, '')
    .normalize('NFKC')
    .toLowerCase();
  for (const match of normalised.matchAll(WORD_RE)) {
    const token = match[0].replace(/[\u2019\u02bc]/g, "'");
    if (CJK_CHAR_RE.test(token)) {
      for (const piece of token.match(CJK_SPLIT_RE) ?? []) out.push(piece);
    } else {
      out.push(token);
    }
  }
  return out;
}

/**
 * Tokens as SQLite FTS5's `unicode61 remove_diacritics 2` tokenizer cuts and folds them: runs of
 * letters, digits and private-use characters (apostrophes, hyphens and everything else separate
 * words, so "don't" is "don" + "t"; a run of ideographs is one token), lowercased, with Latin
 * diacritics removed (café → cafe). Combining marks inside a word are dropped.
 */
const FTS_TOKEN_RE = /[\p{L}\p{N}\p{Co}][\p{L}\p{N}\p{Co}\u0300-\u0331]*/gu;
export const ASCII_FTS_TOKEN_RE = /[a-z0-9]+/g;
const foldCache = new Map<string, string>();

function foldChar(c: string): string {
  let folded = foldCache.get(c);
  if (folded === undefined) {
    // Case folding, not just lowercasing: final sigma folds to sigma as in SQLite's tables.
    const lower = c === '\u03c2' ? '\u03c3' : c.toLowerCase();
    // Only Latin letters lose their diacritics (ῥ stays ῥ, é becomes e).
    const base = lower.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
    folded = /^[a-z]$/.test(base) ? base : lower;
    if (foldCache.size < 10_000) foldCache.set(c, folded);
  }
  return folded;
}

/**
 * A token holding Han or kana split into single ideographs/kana and the runs between them (see
 * CJK_SPLIT_RE); any other token as it is. The one place the in-memory index departs from FTS5:
 * unicode61 keeps "配送には" whole, so a question never matches a sentence written around it.
 */
export function splitCjk(token: string): string[] {
  return CJK_CHAR_RE.test(token) ? (token.match(CJK_SPLIT_RE) ?? [token]) : [token];
}

export function ftsTokens(text: string): string[] {
  if (ASCII_ONLY_RE.test(text)) return text.toLowerCase().match(ASCII_FTS_TOKEN_RE) ?? [];
  const out: string[] = [];
  for (const m of text.matchAll(FTS_TOKEN_RE)) {
    let token = '';
    for (const c of m[0]) {
      const code = c.codePointAt(0) as number;
      if (code >= 0x300 && code <= 0x331) continue;
      token += code < 0x80 ? c.toLowerCase() : foldChar(c);
    }
    if (token) out.push(token);
  }
  return out;
}

// ---------------------------------------------------------------------------
// Stemming: FTS5's own Porter (1980), so every engine reduces a word to the same term
// ---------------------------------------------------------------------------

/** One word folded as unicode61 folds each character (lowercase, Latin diacritics removed), kept whole. */
function foldWord(word: string): string {
  if (ASCII_ONLY_RE.test(word)) return word.toLowerCase();
  let out = '';
  for (const c of word) {
    const code = c.codePointAt(0) as number;
    if (code >= 0x300 && code <= 0x331) continue;
    out += code < 0x80 ? c.toLowerCase() : foldChar(c);
  }
  return out;
}

/** Word as given → stem: answering and indexing stem the same vocabulary over and over. */
const stemCache = new Map<string, string>();
const STEM_CACHE_LIMIT = 100_000;

/**
 * Stem of one word, exactly as FTS5's `porter unicode61 remove_diacritics 2` would index it
 * (see porter.ts): folded (lowercase, café → cafe), then Porter (1980). A possessive "'s" /
 * trailing "'" is dropped first so "user's" matches "users".
 */
export function stem(word: string): string {
  const cached = stemCache.get(word);
  if (cached !== undefined) return cached;
  let w = foldWord(word).replace(/[\u2019\u02bc]/g, "'");
  if (/^[\p{L}\p{N}]+'s?$/u.test(w)) w = w.replace(/'s?$/, '');
  const result = porterStem(w);
  // Bounded: a flood of unique tokens (ids, numbers) must not grow it without limit.
  if (stemCache.size >= STEM_CACHE_LIMIT) stemCache.clear();
  stemCache.set(word, result);
  return result;
}
